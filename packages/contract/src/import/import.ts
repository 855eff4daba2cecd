import { z } from "zod";
import {
  booleanField,
  currencyCode,
  dateTimeInput,
  moneyInput,
  moneyOutput,
  uuidField,
} from "../http/fields";
import { detailsRecord } from "./details-record";

/** A payload larger than this is refused: send a long history in several syncs, oldest first. */
export const MAX_SCRAPE_ROWS = 20_000;
export const MAX_DETAILS_ITEMS = 5_000;

export const ScrapeSyncTransactionSchema = z
  .object({
    is_pending: booleanField().meta({ description: "Not yet posted by the bank.", example: false }),
    posted_date: dateTimeInput().meta({
      description: "A bare YYYY-MM-DD names that day in the account's time zone (its first owner's).",
    }),
    raw_description: z.string().trim().min(1, "This field may not be blank.").max(10_000).meta({
      description: "The description as the bank shows it.",
      example: "POS DEBIT GREEN VALLEY MKT #112 SPRINGFIELD",
    }),
    amount: moneyInput().meta({ description: "The amount: negative for a debit.", example: "-58.20" }),
    transaction_type: z
      .string()
      .trim()
      .max(64)
      .meta({
        description: "The bank's transaction type (see Transaction), or empty.",
        example: "signature_purchase",
      })
      .optional(),
    running_balance: moneyInput()
      .nullable()
      .meta({
        description: "The account balance the bank shows after this row, or null.",
        example: "2391.80",
      })
      .optional(),
    amount_currency: currencyCode()
      .meta({ description: "The account's currency (optional).", example: "USD" })
      .optional(),
  })
  .meta({ id: "ScrapeSyncTransaction", description: "One row of the bank's transaction list, as scraped." });

export type ScrapeSyncTransaction = z.output<typeof ScrapeSyncTransactionSchema>;

export const syncScrapeFields = {
  scraped_at: dateTimeInput().meta({
    description: "When the scrape was taken.",
    example: "2026-05-02T05:58:00Z",
  }),
  ending_balance: moneyInput().meta({
    description: "The account balance the bank showed at the scrape; compared with the result.",
    example: "2391.80",
  }),
  ending_balance_currency: currencyCode()
    .meta({ description: "The account's currency (optional).", example: "USD" })
    .optional(),
  transactions: z
    .array(ScrapeSyncTransactionSchema)
    .max(MAX_SCRAPE_ROWS, `At most ${MAX_SCRAPE_ROWS} rows per sync; send older rows in an earlier sync.`)
    .meta({ description: "Newest first, as the bank lists them." }),
  dry_run: booleanField()
    .meta({ description: "Allot extension: answer what the sync would do, change nothing." })
    .optional(),
};

export type SyncScrapeInput = z.output<z.ZodObject<typeof syncScrapeFields>>;

export const ScrapeSyncDetailsNeededSchema = z
  .object({
    index: z
      .number()
      .int()
      .meta({ description: "Position in the submitted transactions array.", example: 0 }),
    transaction: z.uuid().meta({ description: "The id of the transaction inserted for it." }),
  })
  .meta({
    id: "ScrapeSyncDetailsNeeded",
    description: "An inserted row whose provider details should be sent next.",
  });

export const SyncScrapeResultSchema = z
  .object({
    deleted_pending: z
      .number()
      .int()
      .meta({ description: "Pending transactions deleted before the insert.", example: 2 }),
    inserted_posted: z.number().int().meta({ description: "New posted transactions inserted.", example: 5 }),
    skipped_posted: z
      .number()
      .int()
      .meta({ description: "Posted rows already stored, skipped.", example: 40 }),
    inserted_pending: z.number().int().meta({ description: "Pending rows inserted.", example: 1 }),
    balance_mismatch: moneyOutput()
      .nullable()
      .meta({ description: "The account's available balance minus ending_balance; null when equal." }),
    posting_order_mismatches: z.array(z.string()).meta({
      description:
        "One message per pair of posted rows whose running balances do not chain (newer = older + newer amount).",
      example: [],
    }),
    last_posted_through: z.iso.date().nullable().meta({
      description: "The latest posted date among the rows; null when none was posted.",
      example: "2026-05-01",
    }),
    new_transaction_ids: z
      .array(z.uuid())
      .meta({ description: "The ids of the inserted transactions, in the order sent." }),
    details_needed: z
      .array(ScrapeSyncDetailsNeededSchema)
      .meta({ description: "Inserted rows to send to transaction-details next." }),
  })
  .meta({ id: "SyncScrapeResult", description: "What a sync-scrape did (or would do, on a dry run)." });

export type SyncScrapeResult = z.output<typeof SyncScrapeResultSchema>;

export const TransactionDetailsItemSchema = z
  .object({
    transaction: uuidField().meta({
      description: "The id of a posted transaction of the account.",
      example: "4a8c2e6f-1b3d-4f5a-9c7e-2d4f6a8b0c1e",
    }),
    details: detailsRecord(),
    category: z
      .string()
      .trim()
      .max(300)
      .nullable()
      .meta({ description: "A category full name, 'Group : Name'." })
      .optional(),
  })
  .meta({ id: "TransactionDetailsItem", description: "The provider's record for one transaction." });

export type TransactionDetailsItem = z.output<typeof TransactionDetailsItemSchema>;

export const transactionDetailsFields = {
  overwrite: booleanField()
    .meta({
      description: "Also replace the details of transactions that have some; default false.",
      example: false,
    })
    .optional(),
  details: z
    .array(TransactionDetailsItemSchema)
    .max(MAX_DETAILS_ITEMS, `At most ${MAX_DETAILS_ITEMS} items per request.`)
    .meta({ description: "Up to 5000 items, answered in this order." }),
};

export type TransactionDetailsInput = z.output<z.ZodObject<typeof transactionDetailsFields>>;

export const DETAILS_STATUSES = ["applied", "skipped_has_details", "skipped_pending", "not_found"] as const;

export const TransactionDetailsResultSchema = z
  .object({
    transaction: z.uuid().meta({ description: "The item's transaction id." }),
    status: z.enum(DETAILS_STATUSES).meta({
      description:
        "`applied` stored, `skipped_has_details` it had details (no `overwrite`), `skipped_pending` still pending, `not_found` no such posted transaction in the account.",
      example: "applied",
    }),
    warnings: z
      .array(z.string())
      .meta({ description: "E.g. an unknown category name, left unassigned.", example: [] }),
  })
  .meta({ id: "TransactionDetailsResult", description: "What happened to one item." });

export const TransactionDetailsResponseSchema = z
  .object({
    applied: z.number().int().meta({ description: "Items stored.", example: 4 }),
    skipped_has_details: z
      .number()
      .int()
      .meta({ description: "Items skipped: the transaction had details.", example: 1 }),
    skipped_pending: z
      .number()
      .int()
      .meta({ description: "Items skipped: the transaction is pending.", example: 0 }),
    not_found: z
      .number()
      .int()
      .meta({ description: "Items whose transaction was not found in the account.", example: 0 }),
    results: z
      .array(TransactionDetailsResultSchema)
      .meta({ description: "One result per item, in the order sent." }),
  })
  .meta({ id: "TransactionDetailsResponse", description: "What transaction-details did." });

export type TransactionDetailsResponse = z.output<typeof TransactionDetailsResponseSchema>;
