import {
  BUDGET_TYPES,
  type BudgetType,
  FUNDING_TYPES,
  type FundingType,
} from "@allot/contract/budgets/budget-kinds";
import { sql } from "drizzle-orm";
import {
  boolean,
  char,
  check,
  date,
  index,
  pgTable,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
  varchar,
} from "drizzle-orm/pg-core";
import { bankAccounts } from "./bank-accounts";
import { changeSeq, money, oneOf, timestamps, uuidPrimaryKey } from "./columns";

export const budgets = pgTable(
  "budgets",
  {
    id: uuidPrimaryKey(),
    bankAccountId: uuid("bank_account_id")
      .notNull()
      .references(() => bankAccounts.id, { onDelete: "cascade" }),
    name: varchar("name", { length: 200 }).notNull(),
    /** G goal, R recurring, A associated fill-up goal, C capped. */
    budgetType: char("budget_type", { length: 1 }).$type<BudgetType>().notNull(),
    /** D target date, F fixed amount. */
    fundingType: char("funding_type", { length: 1 }).$type<FundingType>().notNull(),
    isUnallocated: boolean("is_unallocated").notNull().default(false),
    balance: money("balance").notNull().default("0"),
    fundedAmount: money("funded_amount").notNull().default("0"),
    targetBalance: money("target_balance").notNull().default("0"),
    fundingAmount: money("funding_amount"),
    targetDate: date("target_date", { mode: "string" }),
    fillupGoalId: uuid("fillup_goal_id"),
    archived: boolean("archived").notNull().default(false),
    archivedAt: timestamp("archived_at", { withTimezone: true }),
    complete: boolean("complete").notNull().default(false),
    paused: boolean("paused").notNull().default(false),
    fundingSchedule: text("funding_schedule").notNull().default(""),
    recurrenceSchedule: text("recurrence_schedule"),
    memo: varchar("memo", { length: 512 }),
    autoSpend: text("auto_spend").array().notNull().default(sql`'{}'::text[]`),
    /**
     * The funding engine's pointer: events on or after schedules_from (the account's local date at
     * creation) and after processed_through (the last event date done) are due. One kind a budget:
     * Goals, Capped budgets and fill-ups have fund events, Recurring budgets recur events.
     */
    schedulesFrom: date("schedules_from", { mode: "string" }).notNull().default(sql`current_date`),
    processedThrough: date("processed_through", { mode: "string" }),
    changeSeq: changeSeq(),
    ...timestamps,
  },
  (t) => [
    index("budgets_account_idx").on(t.bankAccountId),
    index("budgets_changes_idx").on(t.bankAccountId, t.changeSeq, t.id),
    uniqueIndex("budgets_one_unallocated_per_account").on(t.bankAccountId).where(sql`${t.isUnallocated}`),
    // Target of the (budget, account) foreign keys of funding occurrences and transfers.
    unique("budgets_id_account_key").on(t.id, t.bankAccountId),
    check("budgets_budget_type", oneOf(t.budgetType, BUDGET_TYPES)),
    check("budgets_funding_type", oneOf(t.fundingType, FUNDING_TYPES)),
  ],
);
