import { check, date, pgTable, primaryKey, timestamp, uuid, varchar } from "drizzle-orm/pg-core";
import { bankAccounts } from "./bank-accounts";
import { oneOf } from "./columns";

/** The daily account jobs (packages/scheduler, account-jobs.ts): each runs one kind of funding event. */
export const ACCOUNT_JOB_NAMES = ["fund", "recur"] as const;
export type AccountJobName = (typeof ACCOUNT_JOB_NAMES)[number];

/**
 * Which daily cron job has run for which account on which local date. A job claims its row
 * (insert … on conflict do nothing) before it runs the account, so several cron processes never
 * run the same account twice in a day, and a process that starts late still runs it once.
 */
export const scheduledRuns = pgTable(
  "scheduled_runs",
  {
    job: varchar("job", { length: 32 }).$type<AccountJobName>().notNull(),
    bankAccountId: uuid("bank_account_id")
      .notNull()
      .references(() => bankAccounts.id, { onDelete: "cascade" }),
    runDate: date("run_date", { mode: "string" }).notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.job, t.bankAccountId, t.runDate] }),
    check("scheduled_runs_job", oneOf(t.job, ACCOUNT_JOB_NAMES)),
  ],
);
