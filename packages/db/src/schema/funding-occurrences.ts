import {
  FUNDING_OCCURRENCE_KINDS,
  FUNDING_OCCURRENCE_STATUSES,
  type FundingOccurrenceKind,
  type FundingOccurrenceStatus,
} from "@allot/contract/funding-occurrences/funding-occurrence";
import { sql } from "drizzle-orm";
import {
  check,
  date,
  foreignKey,
  index,
  pgTable,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from "drizzle-orm/pg-core";
import { budgets } from "./budgets";
import { changeSeq, money, oneOf, timestamps, uuidPrimaryKey } from "./columns";

/**
 * One row per (budget, kind, scheduled_date) the funding engine has reached: `fund` events belong
 * to the budget they fill (a Recurring budget's go to its fill-up goal), `recur` events to the
 * Recurring budget. The unique index is what makes a second run unable to fund twice.
 */
export const fundingOccurrences = pgTable(
  "funding_occurrences",
  {
    id: uuidPrimaryKey(),
    bankAccountId: uuid("bank_account_id").notNull(),
    budgetId: uuid("budget_id").notNull(),
    kind: varchar("kind", { length: 5 }).$type<FundingOccurrenceKind>().notNull(),
    scheduledDate: date("scheduled_date", { mode: "string" }).notNull(),
    status: varchar("status", { length: 8 }).$type<FundingOccurrenceStatus>().notNull().default("PENDING"),
    /** What the event asked for, and what has moved so far (less while PARTIAL). */
    amount: money("amount").notNull().default("0"),
    movedAmount: money("moved_amount").notNull().default("0"),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    changeSeq: changeSeq(),
    ...timestamps,
  },
  (t) => [
    // The budget and its account in one key: every row of a run names the same account, and a
    // foreign key to that one hot row costs ~20 µs a row on PostgreSQL; the pair points at
    // distinct budgets and still proves the account is the budget's.
    foreignKey({
      name: "funding_occurrences_budget_account_fk",
      columns: [t.budgetId, t.bankAccountId],
      foreignColumns: [budgets.id, budgets.bankAccountId],
    }).onDelete("cascade"),
    uniqueIndex("funding_occurrences_event_idx").on(t.budgetId, t.kind, t.scheduledDate),
    index("funding_occurrences_account_idx").on(t.bankAccountId, t.scheduledDate),
    index("funding_occurrences_changes_idx").on(t.bankAccountId, t.changeSeq, t.id),
    index("funding_occurrences_partial_idx").on(t.bankAccountId).where(sql`${t.status} = 'PARTIAL'`),
    check("funding_occurrences_kind", oneOf(t.kind, FUNDING_OCCURRENCE_KINDS)),
    check("funding_occurrences_status", oneOf(t.status, FUNDING_OCCURRENCE_STATUSES)),
  ],
);
