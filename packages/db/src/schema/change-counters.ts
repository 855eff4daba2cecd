import { bigint, pgTable, uuid } from "drizzle-orm/pg-core";
import { bankAccounts } from "./bank-accounts";

/**
 * Each account's change feed counter (docs/decisions/0035), beside the account rather than on it:
 * every write takes a number here after locking the account, and rows the write then inserts
 * check their foreign key against the account row, which costs several times more per row when the
 * transaction has updated that row.
 */
export const changeCounters = pgTable("change_counters", {
  bankAccountId: uuid("bank_account_id")
    .primaryKey()
    .references(() => bankAccounts.id, { onDelete: "cascade" }),
  /** The last number taken; the next write takes the one after. */
  lastChange: bigint("last_change", { mode: "number" }).notNull().default(0),
  /** Tombstones up to this number have been purged: an older cursor is 410 cursor_expired. */
  purgedThrough: bigint("purged_through", { mode: "number" }).notNull().default(0),
});
