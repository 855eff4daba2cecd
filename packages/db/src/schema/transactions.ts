import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uuid,
  varchar,
} from "drizzle-orm/pg-core";
import { bankAccounts } from "./bank-accounts";
import { changeSeq, money, timestamps, uuidPrimaryKey } from "./columns";
import { transactionCategories } from "./transaction-categories";

export const transactions = pgTable(
  "transactions",
  {
    id: uuidPrimaryKey(),
    bankAccountId: uuid("bank_account_id")
      .notNull()
      .references(() => bankAccounts.id, { onDelete: "cascade" }),
    amount: money("amount").notNull(),
    postedDate: timestamp("posted_date", { withTimezone: true }).notNull(),
    transactionDate: timestamp("transaction_date", { withTimezone: true }).notNull(),
    transactionType: varchar("transaction_type", { length: 64 }).notNull().default(""),
    pending: boolean("pending").notNull().default(false),
    memo: text("memo"),
    rawDescription: text("raw_description").notNull(),
    description: text("description").notNull(),
    descriptionUserEdited: boolean("description_user_edited").notNull().default(false),
    categoryId: uuid("category_id").references(() => transactionCategories.id, { onDelete: "restrict" }),
    party: text("party"),
    merchantName: varchar("merchant_name", { length: 128 }),
    merchantIntermediary: varchar("merchant_intermediary", { length: 128 }),
    merchantAddress: text("merchant_address"),
    merchantCity: varchar("merchant_city", { length: 128 }),
    merchantRegion: varchar("merchant_region", { length: 64 }),
    merchantCountry: varchar("merchant_country", { length: 64 }),
    merchantLatitude: numeric("merchant_latitude", { precision: 9, scale: 6 }),
    merchantLongitude: numeric("merchant_longitude", { precision: 9, scale: 6 }),
    merchantCategory: varchar("merchant_category", { length: 128 }),
    merchantCategoryCode: varchar("merchant_category_code", { length: 4 }),
    virtualCardNumber: varchar("virtual_card_number", { length: 32 }),
    /** The provider's raw record, stored verbatim by transaction-details; null until enriched. */
    details: jsonb("details"),
    bankTransactionId: varchar("bank_transaction_id", { length: 128 }),
    linkedTransactionId: uuid("linked_transaction_id"),
    /** Running balances of the account after this row, in list order (see ledger/snapshots). */
    postedBalanceSnapshot: money("posted_balance_snapshot").notNull().default("0"),
    availableBalanceSnapshot: money("available_balance_snapshot").notNull().default("0"),
    // Receipt files (docs/spec/extensions.md §5): the store's key and what the download answers
    // with. All of one file's columns are set together or all null.
    imageKey: varchar("image_key", { length: 200 }),
    imageName: varchar("image_name", { length: 200 }),
    imageContentType: varchar("image_content_type", { length: 64 }),
    imageSize: integer("image_size"),
    imageWidth: integer("image_width"),
    imageHeight: integer("image_height"),
    documentKey: varchar("document_key", { length: 200 }),
    documentName: varchar("document_name", { length: 200 }),
    documentContentType: varchar("document_content_type", { length: 64 }),
    documentSize: integer("document_size"),
    changeSeq: changeSeq(),
    ...timestamps,
  },
  (t) => [
    index("transactions_account_order_idx").on(t.bankAccountId, t.transactionDate, t.createdAt, t.id),
    index("transactions_category_idx").on(t.categoryId),
    index("transactions_changes_idx").on(t.bankAccountId, t.changeSeq, t.id),
    // Every sync-scrape finds and replaces the account's few pending rows among its many posted ones.
    index("transactions_pending_idx").on(t.bankAccountId).where(sql`${t.pending}`),
    check(
      "transactions_image_whole",
      sql`num_nulls(${t.imageKey}, ${t.imageName}, ${t.imageContentType}, ${t.imageSize}, ${t.imageWidth}, ${t.imageHeight}) in (0, 6)`,
    ),
    check(
      "transactions_document_whole",
      sql`num_nulls(${t.documentKey}, ${t.documentName}, ${t.documentContentType}, ${t.documentSize}) in (0, 4)`,
    ),
  ],
);
