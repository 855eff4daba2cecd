import { foreignKey, index, integer, pgTable, timestamp, uuid } from "drizzle-orm/pg-core";
import { budgets } from "./budgets";
import { changeSeq, money, timestamps, uuidPrimaryKey } from "./columns";
import { users } from "./users";

/** Budget-to-budget transfers inside one account: write-once. */
export const internalTransactions = pgTable(
  "internal_transactions",
  {
    id: uuidPrimaryKey(),
    bankAccountId: uuid("bank_account_id").notNull(),
    amount: money("amount").notNull(),
    srcBudgetId: uuid("src_budget_id").notNull(),
    dstBudgetId: uuid("dst_budget_id").notNull(),
    /** The user who made it; null for the service's own transfers once that user is gone. */
    actorId: integer("actor_id").references(() => users.id, { onDelete: "set null" }),
    effectiveDate: timestamp("effective_date", { withTimezone: true }).notNull().defaultNow(),
    /** Running balances of both budgets after this transfer (see ledger/snapshots). */
    srcBudgetBalance: money("src_budget_balance").notNull().default("0"),
    dstBudgetBalance: money("dst_budget_balance").notNull().default("0"),
    changeSeq: changeSeq(),
    ...timestamps,
  },
  (t) => [
    // Each budget with the account in one key: both budgets are the account's, and no row's check
    // touches the one account row every transfer of a funding run names (a hot row costs ~20 µs a
    // check on PostgreSQL).
    foreignKey({
      name: "internal_transactions_src_account_fk",
      columns: [t.srcBudgetId, t.bankAccountId],
      foreignColumns: [budgets.id, budgets.bankAccountId],
    }).onDelete("cascade"),
    foreignKey({
      name: "internal_transactions_dst_account_fk",
      columns: [t.dstBudgetId, t.bankAccountId],
      foreignColumns: [budgets.id, budgets.bankAccountId],
    }).onDelete("cascade"),
    index("internal_transactions_account_idx").on(t.bankAccountId, t.effectiveDate, t.createdAt),
    index("internal_transactions_src_idx").on(t.srcBudgetId),
    index("internal_transactions_dst_idx").on(t.dstBudgetId),
    index("internal_transactions_changes_idx").on(t.bankAccountId, t.changeSeq, t.id),
  ],
);
