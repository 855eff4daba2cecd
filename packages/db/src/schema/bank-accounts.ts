import { ACCOUNT_TYPES, type AccountType } from "@allot/contract/bank-accounts/bank-account";
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  char,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  timestamp,
  uuid,
  varchar,
} from "drizzle-orm/pg-core";
import { banks } from "./banks";
import { changeStampOnUpdate, money, oneOf, timestamps, uuidPrimaryKey } from "./columns";
import { users } from "./users";

export const bankAccounts = pgTable(
  "bank_accounts",
  {
    id: uuidPrimaryKey(),
    name: varchar("name", { length: 200 }).notNull(),
    bankId: uuid("bank_id")
      .notNull()
      .references(() => banks.id, { onDelete: "restrict" }),
    /** C checking, S savings, X credit card. */
    accountType: char("account_type", { length: 1 }).$type<AccountType>().notNull().default("C"),
    accountNumber: varchar("account_number", { length: 32 }),
    currency: char("currency", { length: 3 }).notNull(),
    postedBalance: money("posted_balance").notNull().default("0"),
    availableBalance: money("available_balance").notNull().default("0"),
    autoFundingEnabled: boolean("auto_funding_enabled").notNull().default(false),
    /** How many transactions the account holds, kept by the ledger: an O(1) count for the list. */
    transactionCount: integer("transaction_count").notNull().default(0),
    lastImportedAt: timestamp("last_imported_at", { withTimezone: true }),
    lastPostedThrough: date("last_posted_through", { mode: "string" }),
    /** The change number of the write that last changed what the account's own GET answers. */
    changeSeq: bigint("change_seq", { mode: "number" })
      .notNull()
      .default(0)
      // drizzle puts an update hook into inserts when the default is falsy (0): inserts keep the default.
      .$defaultFn(() => sql`default`)
      .$onUpdate(changeStampOnUpdate),
    ...timestamps,
  },
  (t) => [check("bank_accounts_account_type", oneOf(t.accountType, ACCOUNT_TYPES))],
);

export const bankAccountOwners = pgTable(
  "bank_account_owners",
  {
    bankAccountId: uuid("bank_account_id")
      .notNull()
      .references(() => bankAccounts.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.bankAccountId, t.userId] }),
    index("bank_account_owners_user_idx").on(t.userId),
  ],
);
