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
    is_pending: booleanField(),
    posted_date: dateTimeInput().meta({
      description: "A bare YYYY-MM-DD names that day in the account's time zone (its first owner's).",
    }),
    raw_description: z.string().trim().min(1, "This field may not be blank.").max(10_000),
    amount: moneyInput(),
    transaction_type: z.string().trim().max(64).optional(),
    running_balance: moneyInput().nullable().optional(),
    amount_currency: currencyCode().optional(),
  })
  .meta({ id: "ScrapeSyncTransaction" });

export type ScrapeSyncTransaction = z.output<typeof ScrapeSyncTransactionSchema>;

export const syncScrapeFields = {
  scraped_at: dateTimeInput(),
  ending_balance: moneyInput(),
  ending_balance_currency: currencyCode().optional(),
  transactions: z
    .array(ScrapeSyncTransactionSchema)
    .max(MAX_SCRAPE_ROWS, `At most ${MAX_SCRAPE_ROWS} rows per sync; send older rows in an earlier sync.`)
    .meta({ description: "Newest first, as the bank lists them." }),
  dry_run: booleanField()
    .optional()
    .meta({ description: "Allot extension: answer what the sync would do, change nothing." }),
};

export type SyncScrapeInput = z.output<z.ZodObject<typeof syncScrapeFields>>;

export const ScrapeSyncDetailsNeededSchema = z
  .object({
    index: z.number().int().meta({ description: "Position in the submitted transactions array." }),
    transaction: z.uuid(),
  })
  .meta({ id: "ScrapeSyncDetailsNeeded" });

export const SyncScrapeResultSchema = z
  .object({
    deleted_pending: z.number().int(),
    inserted_posted: z.number().int(),
    skipped_posted: z.number().int(),
    inserted_pending: z.number().int(),
    balance_mismatch: moneyOutput()
      .nullable()
      .meta({ description: "The account's available balance minus ending_balance; null when equal." }),
    posting_order_mismatches: z.array(z.string()),
    last_posted_through: z.iso.date().nullable(),
    new_transaction_ids: z.array(z.uuid()),
    details_needed: z.array(ScrapeSyncDetailsNeededSchema),
  })
  .meta({ id: "SyncScrapeResult" });

export type SyncScrapeResult = z.output<typeof SyncScrapeResultSchema>;

export const TransactionDetailsItemSchema = z
  .object({
    transaction: uuidField(),
    details: detailsRecord(),
    category: z
      .string()
      .trim()
      .max(300)
      .nullable()
      .optional()
      .meta({ description: "A category full name, 'Group : Name'." }),
  })
  .meta({ id: "TransactionDetailsItem" });

export type TransactionDetailsItem = z.output<typeof TransactionDetailsItemSchema>;

export const transactionDetailsFields = {
  overwrite: booleanField().optional(),
  details: z
    .array(TransactionDetailsItemSchema)
    .max(MAX_DETAILS_ITEMS, `At most ${MAX_DETAILS_ITEMS} items per request.`),
};

export type TransactionDetailsInput = z.output<z.ZodObject<typeof transactionDetailsFields>>;

export const DETAILS_STATUSES = ["applied", "skipped_has_details", "skipped_pending", "not_found"] as const;

export const TransactionDetailsResultSchema = z
  .object({
    transaction: z.uuid(),
    status: z.enum(DETAILS_STATUSES),
    warnings: z.array(z.string()),
  })
  .meta({ id: "TransactionDetailsResult" });

export const TransactionDetailsResponseSchema = z
  .object({
    applied: z.number().int(),
    skipped_has_details: z.number().int(),
    skipped_pending: z.number().int(),
    not_found: z.number().int(),
    results: z.array(TransactionDetailsResultSchema),
  })
  .meta({ id: "TransactionDetailsResponse" });

export type TransactionDetailsResponse = z.output<typeof TransactionDetailsResponseSchema>;
