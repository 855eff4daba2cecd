import { randomUUID } from "node:crypto";
import { BUDGET_TYPE, FUNDING_TYPE } from "@allot/contract/budgets/budget-kinds";
import type { Database } from "@allot/db/create-database";
import { budgets } from "@allot/db/schema/budgets";
import { fillupName } from "@allot/domain/budgets/budget-fields";
import { checkFundingSchedule, checkRecurrenceSchedule } from "@allot/domain/budgets/recurrence-grammar";
import { accountToday } from "@allot/domain/calendar/account-time-zone";
import { addDays } from "@allot/domain/funding/schedule-events";
import { postJson } from "./seed";

/** Far more than a year of every event asks for (about 0.7 million): no event is left short. */
export const OPENING_BALANCE = "2000000.00";

const FREQUENCIES = [
  { rule: "RRULE:FREQ=WEEKLY", perYear: 52 },
  { rule: "RRULE:FREQ=WEEKLY;INTERVAL=2", perYear: 26 },
  { rule: "RRULE:FREQ=MONTHLY", perYear: 12 },
] as const;

interface BudgetMix {
  fixedGoals: number;
  dateGoals: number;
  capped: number;
  recurring: number;
  /** One per Recurring budget. */
  fillups: number;
}

export interface FundingAccount {
  accountId: string;
  /** The account's today (its first owner's time zone): the run's as_of. */
  asOf: string;
  /**
   * Every budget's schedules_from: a year before asOf, so a year of events is due (the default), or
   * asOf itself, so a year of events lies ahead (`schedulesFrom: "today"`).
   */
  schedulesFrom: string;
  mix: BudgetMix;
}

/**
 * One bank account of `budgetCount` budgets (fill-up goals not counted: 4 in 10 Goals, 3 Capped,
 * 3 Recurring), made through the API (so its Unallocated budget holds the whole available
 * balance, as create-bank-account sets it), then its budgets inserted in one statement — rows shaped
 * exactly as create-budget makes them (schedules checked and canonicalised by the same grammar, each
 * Recurring budget with its "<name> Fill-up" goal of type A mirroring its target and funding
 * schedule) but with schedules_from a year back, which no use case can set. Every DTSTART falls on
 * or after schedules_from; `variant` becomes its seconds past midnight UTC, which moves no event
 * date but makes each round's schedule texts new to the parsed-schedule and rrule caches of both
 * processes, as a real account's would be. With `schedulesFrom: "today"` the same budgets count
 * their schedules from the account's today instead: nothing is due yet, a year of events lies ahead
 * (the forecast's account); target dates stay where they are, a year and more after today.
 */
export async function seedFundingAccount(
  db: Database,
  api: { url: string; token: string; bankId: string },
  variant: number,
  budgetCount: number,
  options: { schedulesFrom?: "a year back" | "today" } = {},
): Promise<FundingAccount> {
  const account = (await postJson(
    api.url,
    "/api/v1/bank-accounts/",
    api.token,
    {
      name: `Funding bench ${variant}-${randomUUID().slice(0, 8)}`,
      bank: api.bankId,
      available_balance: OPENING_BALANCE,
      posted_balance: OPENING_BALANCE,
    },
    201,
  )) as { id: string };
  const asOf = await db.transaction((tx) => accountToday(tx, account.id));
  const schedulesFrom = options.schedulesFrom === "today" ? asOf : yearBefore(asOf);
  const mix: BudgetMix = { fixedGoals: 0, dateGoals: 0, capped: 0, recurring: 0, fillups: 0 };

  type BudgetInsert = typeof budgets.$inferInsert;
  const rows: BudgetInsert[] = [];
  // Made one after another, as through the API: ties on an event date go to the older budget.
  const madeAt = Date.now();
  const common = (n: number) => ({
    bankAccountId: account.id,
    schedulesFrom,
    createdAt: new Date(madeAt + n),
    modifiedAt: new Date(madeAt + n),
  });
  for (let i = 0; i < budgetCount; i++) {
    const frequency = FREQUENCIES[i % FREQUENCIES.length] ?? FREQUENCIES[0];
    const offset = frequency.perYear === 12 ? i % 28 : i % 14;
    const fundingSchedule = checked(
      checkFundingSchedule(
        `DTSTART:${dtstart(addDays(schedulesFrom, offset), variant)}\n${frequency.rule}`,
        asOf,
      ),
    );
    const number = String(i + 1).padStart(4, "0");
    const slot = i % 10;
    if (slot < 4 && i % 2 === 0) {
      // A fixed amount an event, toward a target a year and a half of events away.
      const amount = 5 + (i % 16) * 2.5;
      mix.fixedGoals += 1;
      rows.push({
        ...common(2 * i),
        name: `Goal ${number}`,
        budgetType: BUDGET_TYPE.goal,
        fundingType: FUNDING_TYPE.fixedAmount,
        fundingAmount: amount.toFixed(2),
        targetBalance: (amount * frequency.perYear * 1.5).toFixed(2),
        fundingSchedule,
      });
    } else if (slot < 4) {
      // What is missing, spread over the events up to a date a year ahead.
      mix.dateGoals += 1;
      rows.push({
        ...common(2 * i),
        name: `Goal ${number}`,
        budgetType: BUDGET_TYPE.goal,
        fundingType: FUNDING_TYPE.targetDate,
        targetBalance: (600 + (i % 25) * 40).toFixed(2),
        targetDate: addDays(asOf, 365 + (i % 30)),
        fundingSchedule,
      });
    } else if (slot < 7) {
      // A fixed amount an event up to the cap; one in three reaches its cap within the year.
      const amount = 10 + (i % 9) * 5;
      const reachesCap = Math.floor(i / 10) % 3 === 2;
      mix.capped += 1;
      rows.push({
        ...common(2 * i),
        name: `Capped ${number}`,
        budgetType: BUDGET_TYPE.capped,
        fundingType: FUNDING_TYPE.fixedAmount,
        fundingAmount: amount.toFixed(2),
        targetBalance: (amount * frequency.perYear * (reachesCap ? 0.8 : 1.25)).toFixed(2),
        fundingSchedule,
      });
    } else {
      // Refreshed monthly from its fill-up goal, which is funded on the funding schedule.
      const targetBalance = (40 + (i % 20) * 15).toFixed(2);
      const recurrenceSchedule = checked(
        checkRecurrenceSchedule(
          `DTSTART:${dtstart(addDays(schedulesFrom, i % 28), variant)}\nRRULE:FREQ=MONTHLY`,
          asOf,
        ),
      );
      const name = `Recurring ${number}`;
      const fillupId = randomUUID();
      mix.recurring += 1;
      mix.fillups += 1;
      rows.push({
        ...common(2 * i),
        id: fillupId,
        name: fillupName(name),
        budgetType: BUDGET_TYPE.fillup,
        fundingType: FUNDING_TYPE.targetDate,
        targetBalance,
        fundingSchedule,
        paused: false,
      });
      rows.push({
        ...common(2 * i + 1),
        name,
        budgetType: BUDGET_TYPE.recurring,
        fundingType: FUNDING_TYPE.targetDate,
        targetBalance,
        fundingSchedule,
        recurrenceSchedule,
        fillupGoalId: fillupId,
      });
    }
  }
  await db.insert(budgets).values(rows);
  return { accountId: account.id, asOf, schedulesFrom, mix };
}

function checked(result: { ok: true; value: string } | { ok: false; message: string }): string {
  if (!result.ok) throw new Error(`bench schedule refused: ${result.message}`);
  return result.value;
}

/** `YYYYMMDDT0000ssZ`: the date at `seconds` (0–59) past midnight UTC. */
const dtstart = (date: string, seconds: number) =>
  `${date.replaceAll("-", "")}T0000${String(seconds % 60).padStart(2, "0")}Z`;

/** The same day a year earlier (29 February → 1 March). */
function yearBefore(date: string): string {
  const at = new Date(`${date}T00:00:00Z`);
  at.setUTCFullYear(at.getUTCFullYear() - 1);
  return at.toISOString().slice(0, 10);
}
