import { index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { bankAccounts } from "./bank-accounts";
import { budgets } from "./budgets";
import { changeSeq, money, timestamps, uuidPrimaryKey } from "./columns";
import { transactionCategories } from "./transaction-categories";
import { transactions } from "./transactions";

export const transactionAllocations = pgTable(
  "transaction_allocations",
  {
    id: uuidPrimaryKey(),
    transactionId: uuid("transaction_id")
      .notNull()
      .references(() => transactions.id, { onDelete: "cascade" }),
    /** Denormalised from the transaction for account-scoped reads and snapshots. */
    bankAccountId: uuid("bank_account_id")
      .notNull()
      .references(() => bankAccounts.id, { onDelete: "cascade" }),
    budgetId: uuid("budget_id").references(() => budgets.id, { onDelete: "restrict" }),
    amount: money("amount").notNull(),
    categoryId: uuid("category_id").references(() => transactionCategories.id, { onDelete: "restrict" }),
    memo: text("memo"),
    /** The budget's running balance after this allocation (see ledger/snapshots). */
    budgetBalance: money("budget_balance").notNull().default("0"),
    changeSeq: changeSeq(),
    ...timestamps,
  },
  (t) => [
    index("allocations_transaction_idx").on(t.transactionId, t.createdAt),
    index("allocations_budget_idx").on(t.budgetId),
    index("allocations_account_idx").on(t.bankAccountId, t.createdAt),
    index("allocations_category_idx").on(t.categoryId),
    index("allocations_changes_idx").on(t.bankAccountId, t.changeSeq, t.id),
  ],
);
