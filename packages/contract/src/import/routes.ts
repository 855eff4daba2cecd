import { z } from "zod";
import { uuidField } from "../http/fields";
import { defineRoute } from "../http/route";
import {
  SyncScrapeResultSchema,
  syncScrapeFields,
  TransactionDetailsResponseSchema,
  transactionDetailsFields,
} from "./import";

const tags = ["import"];
const id = uuidField().meta({ description: "The bank account's id." });

/** The import routes, each keyed by the one name the API, the SDK and the CLI give it. */
export const importRoutes = {
  syncScrape: defineRoute({
    method: "POST",
    path: "/v1/bank-accounts/{id}/sync-scrape/",
    status: 200,
    summary: "Sync a scrape snapshot: pending rows replaced, new posted rows inserted, duplicates skipped",
    description:
      "Syncs a scrape of the bank's transaction list, newest first, atomically: every pending transaction of the account is deleted, posted rows already stored are skipped, and new posted and pending rows are inserted. `details_needed` lists the inserted rows (by index into `transactions`) whose provider details should be sent to transaction-details next. `balance_mismatch` reports a difference from `ending_balance`.",
    tags,
    access: "user",
    events: ["import.synced"],
    input: z.object({ id, ...syncScrapeFields }),
    output: SyncScrapeResultSchema,
  }),

  transactionDetails: defineRoute({
    method: "POST",
    path: "/v1/bank-accounts/{id}/transaction-details/",
    status: 200,
    summary: "Attach the provider's details to posted transactions of the account",
    description:
      "Stores each item's raw provider record on its posted transaction and fills the merchant fields from it. An item's `category` seeds an uncategorized transaction (an unknown name is a warning). Rows already enriched are skipped unless `overwrite`; pending rows always are. Answers counts and one result per item, in order.",
    tags,
    access: "user",
    events: ["transaction.enriched"],
    input: z.object({ id, ...transactionDetailsFields }),
    output: TransactionDetailsResponseSchema,
  }),
};
