import { BUDGET_TYPE, FUNDING_TYPE } from "@allot/contract/budgets/budget-kinds";
import type { Database } from "@allot/db/create-database";
import { rowsOf } from "@allot/db/rows-of";
import { budgets } from "@allot/db/schema/budgets";
import { checkFundingSchedule } from "@allot/domain/budgets/recurrence-grammar";
import { accountToday } from "@allot/domain/calendar/account-time-zone";
import { addDays } from "@allot/domain/funding/schedule-events";
import type { Actor } from "@allot/domain/shared/actor";
import { aBank, anAccount, anOwner } from "@allot/domain/testing/fixtures";
import { seedTransactions as seedAccountTransactions } from "@allot/domain/testing/seed-transactions";
import { sql } from "drizzle-orm";

/*
 * Seeding for the process-kill tests, done straight on the database before the API process starts
 * (the embedded engine admits one process): what would take minutes through the API takes seconds.
 * Rows are shaped as the use cases leave them (owners and accounts through the domain's fixtures),
 * so verifyLedger finds nothing before any fault.
 */

const PASSWORD = "faults-password-not-secret";

export interface Owner {
  email: string;
  password: string;
  actor: Actor;
  bankId: string;
}

export async function seedOwner(db: Database): Promise<Owner> {
  const bank = await aBank(db, { name: "Fault Bank" });
  const owner = await anOwner(db, { email: "owner@faults.example", password: PASSWORD });
  return { ...owner, bankId: bank.id };
}

export interface SeededAccount {
  id: string;
  unallocatedId: string;
  /** Plain budgets (no funding schedule), balance 0. */
  budgetIds: string[];
}

/** An account as create-bank-account makes it (Unallocated holds the balance), plus plain budgets. */
export async function seedAccount(
  db: Database,
  owner: Owner,
  name: string,
  options: { balance?: string; budgets?: number } = {},
): Promise<SeededAccount> {
  const account = await anAccount(db, owner.actor, { name, bank: owner.bankId, balance: options.balance });
  const [unallocated] = rowsOf<{ id: string }>(
    await db.execute(sql`select id from budgets where bank_account_id = ${account.id} and is_unallocated`),
  );
  if (!unallocated) throw new Error(`account ${account.id} has no Unallocated budget`);
  const count = options.budgets ?? 0;
  const rows =
    count === 0
      ? []
      : await db
          .insert(budgets)
          .values(
            Array.from({ length: count }, (_, i) => ({
              bankAccountId: account.id,
              name: `${name} budget ${i + 1}`,
              budgetType: BUDGET_TYPE.goal,
              fundingType: FUNDING_TYPE.fixedAmount,
              fundingAmount: "0.00",
              targetBalance: "1000.00",
            })),
          )
          .returning({ id: budgets.id });
  return { id: account.id, unallocatedId: unallocated.id, budgetIds: rows.map((row) => row.id) };
}

/** The shared seeding of `count` transactions, then fresh statistics for the planner. */
export async function seedTransactions(
  db: Database,
  account: SeededAccount,
  count: number,
  options: { pending?: number } = {},
) {
  await seedAccountTransactions(db, account.id, count, options);
  await db.execute(sql`analyze transactions`);
  await db.execute(sql`analyze transaction_allocations`);
}

/**
 * `count` Capped budgets funded weekly (a fixed 10.00 toward 1,000.00) with schedules counting
 * from a year back, which no use case can set: a funding run then has a year of events due for
 * each, 52 transfers a budget. Returns the account's today (the run's as_of).
 */
export async function seedFundingBudgets(db: Database, accountId: string, count: number) {
  const today = await db.transaction((tx) => accountToday(tx, accountId));
  const schedulesFrom = addDays(today, -364);
  const madeAt = Date.now() - 60_000;
  const rows = Array.from({ length: count }, (_, i) => {
    const start = addDays(schedulesFrom, i % 7).replaceAll("-", "");
    const schedule = checkFundingSchedule(`DTSTART:${start}T000000Z\nRRULE:FREQ=WEEKLY`, today);
    if (!schedule.ok) throw new Error(`schedule refused: ${schedule.message}`);
    return {
      bankAccountId: accountId,
      name: `Capped ${String(i + 1).padStart(4, "0")}`,
      budgetType: BUDGET_TYPE.capped,
      fundingType: FUNDING_TYPE.fixedAmount,
      fundingAmount: "10.00",
      targetBalance: "1000.00",
      fundingSchedule: schedule.value,
      schedulesFrom,
      // Made one after another, as through the API (ties on a date go to the older budget).
      createdAt: new Date(madeAt + i),
      modifiedAt: new Date(madeAt + i),
    };
  });
  await db.insert(budgets).values(rows);
  return today;
}
