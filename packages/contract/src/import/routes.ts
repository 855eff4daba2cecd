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
const id = uuidField();

export const syncScrapeRoute = defineRoute({
  method: "POST",
  path: "/v1/bank-accounts/{id}/sync-scrape/",
  status: 200,
  summary: "Sync a scrape snapshot: pending rows replaced, new posted rows inserted, duplicates skipped",
  tags,
  access: "user",
  input: z.object({ id, ...syncScrapeFields }),
  output: SyncScrapeResultSchema,
});

export const transactionDetailsRoute = defineRoute({
  method: "POST",
  path: "/v1/bank-accounts/{id}/transaction-details/",
  status: 200,
  summary: "Attach the provider's details to posted transactions of the account",
  tags,
  access: "user",
  input: z.object({ id, ...transactionDetailsFields }),
  output: TransactionDetailsResponseSchema,
});
