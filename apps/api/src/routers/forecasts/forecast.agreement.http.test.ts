import { forecastRoutes } from "@allot/contract/forecasts/routes";
import { fundingRoutes } from "@allot/contract/funding/routes";
import { toMoney } from "@allot/contract/money";
import { rowsOf } from "@allot/db/rows-of";
import { budgets } from "@allot/db/schema/budgets";
import { testEngines } from "@allot/db/testing/test-databases";
import { addDays } from "@allot/domain/funding/schedule-events";
import { verifyLedger } from "@allot/domain/ledger/verify-ledger";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { aBudget, anAccount } from "../../../test/testing/fixtures";
import type { TestApp } from "../../../test/testing/test-app";
import { useTestApp } from "../../../test/testing/test-app";
import type { CallOutput } from "../../../test/testing/test-client";

type Forecast = CallOutput<typeof forecastRoutes.get>;

/*
 * docs/spec/extensions.md §8: a forecast to `until` equals what one run-funding with as_of = until
 * does to the same state, cent for cent and occurrence for occurrence. Each case builds an account
 * through the API (every budget type, a paused one, a fill-up, overdue events), forecasts it, then
 * runs the engine for real and compares the rows the run wrote — read from the tables, not from
 * another answer of the API — with the forecast.
 */

interface OccurrenceRow {
  budget: string;
  kind: string;
  date: string;
  status: string;
  amount: string;
  moved: string;
}

const keyOf = (o: { budget: string | null; kind: string; date: string }) => `${o.budget}|${o.kind}|${o.date}`;

async function occurrences(t: TestApp, accountId: string): Promise<Map<string, OccurrenceRow>> {
  const rows = rowsOf<OccurrenceRow>(
    await t.db.execute(sql`
      select budget_id::text as budget, kind, scheduled_date::text as date, status,
        amount::text as amount, moved_amount::text as moved
      from funding_occurrences where bank_account_id = ${accountId}`),
  );
  return new Map(rows.map((row) => [keyOf(row), row]));
}

async function budgetRows(t: TestApp, accountId: string) {
  const rows = await t.db.select().from(budgets).where(eq(budgets.bankAccountId, accountId));
  return new Map(rows.map((row) => [row.id, row]));
}

async function transferCount(t: TestApp, accountId: string): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await t.db.execute(
      sql`select count(*)::int as n from internal_transactions where bank_account_id = ${accountId}`,
    ),
  );
  return row?.n ?? 0;
}

const same = (a: string, b: string) => toMoney(a).eq(toMoney(b));

describe.each(testEngines())("a forecast agrees with run-funding (%s)", (engine) => {
  const t = useTestApp(engine);

  /** Every budget type, a paused Capped budget, a Recurring one with its fill-up, and a Goal behind on its events. */
  async function anAccountOfEveryKind(balance: string) {
    const owner = await t.user();
    const account = await anAccount(t, owner, { balance });
    const weekly = "RRULE:FREQ=WEEKLY";
    await aBudget(t, owner, account, {
      name: "Holiday",
      target_balance: "400",
      funding_amount: "50",
      funding_schedule: weekly,
    });
    const today = (await t.as(owner).call(forecastRoutes.get, { id: account.id })).json().from;
    await aBudget(t, owner, account, {
      name: "House",
      funding_type: "D",
      funding_amount: null,
      target_balance: "2000",
      target_date: addDays(today, 200),
      funding_schedule: "RRULE:FREQ=MONTHLY",
    });
    await aBudget(t, owner, account, {
      name: "Groceries",
      budget_type: "C",
      target_balance: "400",
      funding_amount: "150",
      funding_schedule: weekly,
    });
    await aBudget(t, owner, account, {
      name: "Gym",
      budget_type: "C",
      target_balance: "100",
      funding_amount: "20",
      funding_schedule: weekly,
      paused: true,
    });
    await aBudget(t, owner, account, {
      name: "Rent",
      budget_type: "R",
      funding_type: "D",
      funding_amount: null,
      target_balance: "300",
      funding_schedule: weekly,
      recurrence_schedule: "RRULE:FREQ=MONTHLY",
    });
    // Behind: its daily events since ten days ago have not run.
    const late = await aBudget(t, owner, account, {
      name: "Coffee",
      budget_type: "C",
      target_balance: "60",
      funding_amount: "2",
      funding_schedule: `DTSTART:${addDays(today, -10).replaceAll("-", "")}\nRRULE:FREQ=DAILY`,
    });
    await t.db
      .update(budgets)
      .set({ schedulesFrom: addDays(today, -10) })
      .where(eq(budgets.id, late.id));
    return { owner, account, today };
  }

  /** Forecasts to `until`, runs the engine as of `until`, and compares. */
  async function expectAgreement(
    owner: Awaited<ReturnType<TestApp["user"]>>,
    accountId: string,
    until: string,
  ) {
    const as = t.as(owner);
    const forecastResponse = await as.call(forecastRoutes.get, { id: accountId, until, interval: "day" });
    expect(forecastResponse.statusCode, forecastResponse.body).toBe(200);
    const forecast: Forecast = forecastResponse.json();
    const before = await occurrences(t, accountId);
    const budgetsBefore = await budgetRows(t, accountId);
    const transfersBefore = await transferCount(t, accountId);

    const run = await as.call(fundingRoutes.run, { id: accountId, as_of: until });
    expect(run.statusCode, run.body).toBe(200);
    const after = await occurrences(t, accountId);
    const budgetsAfter = await budgetRows(t, accountId);

    // Occurrence for occurrence: every row the run wrote or topped up is a forecast event, and back.
    const engineEvents = forecast.events.filter((event) => event.kind !== "item");
    const touched = [...after.values()].filter((row) => {
      const earlier = before.get(keyOf(row));
      return !earlier || earlier.moved !== row.moved || earlier.status !== row.status;
    });
    const forecastKeys = new Set(engineEvents.map(keyOf));
    for (const row of touched) expect(forecastKeys.has(keyOf(row)), `the run wrote ${keyOf(row)}`).toBe(true);
    for (const event of engineEvents) {
      const row = after.get(keyOf(event));
      expect(row, `no row for ${keyOf(event)}`).toBeDefined();
      if (!row) continue;
      expect(row.status.toLowerCase(), keyOf(event)).toBe(event.status);
      const earlier = before.get(keyOf(event));
      if (earlier && earlier.status === "PARTIAL") {
        // A top-up: what moved now, on top of what had moved.
        expect(toMoney(row.moved).minus(earlier.moved).eq(toMoney(event.amount)), keyOf(event)).toBe(true);
      } else if (!earlier) {
        expect(same(row.amount, event.intended), `${keyOf(event)} intended`).toBe(true);
        expect(same(row.moved, event.amount), `${keyOf(event)} moved`).toBe(true);
      }
    }
    const moving = engineEvents.filter((event) => toMoney(event.amount).gt(0)).length;
    expect(await transferCount(t, accountId)).toBe(transfersBefore + moving);

    // Cent for cent: every balance, Unallocated's, the Goals' funded amounts and completions.
    const unallocated = [...budgetsAfter.values()].find((row) => row.isUnallocated);
    expect(same(unallocated?.balance ?? "x", forecast.unallocated.end)).toBe(true);
    for (const entry of forecast.budgets) {
      const row = budgetsAfter.get(entry.budget);
      const earlier = budgetsBefore.get(entry.budget);
      if (!row || !earlier) throw new Error(`no budget ${entry.budget}`);
      expect(same(row.balance, entry.end), `${entry.name} end`).toBe(true);
      expect(same(earlier.balance, entry.start), `${entry.name} start`).toBe(true);
      if (row.budgetType === "G") {
        expect(
          same(toMoney(row.fundedAmount).minus(earlier.fundedAmount).toFixed(2), entry.funded),
          entry.name,
        ).toBe(true);
        expect(entry.completes_on !== null, `${entry.name} completes`).toBe(
          row.complete && !earlier.complete,
        );
      } else expect(entry.completes_on, `${entry.name} is no Goal`).toBeNull();
    }
    // The series' last point is the end.
    const last = forecast.series.at(-1);
    expect(last?.date).toBe(until);
    expect(last?.unallocated).toBe(forecast.unallocated.end);
    for (const entry of forecast.budgets) expect(last?.budgets[entry.budget]).toBe(entry.end);
    expect(await verifyLedger(t.db, accountId)).toEqual([]);
    return forecast;
  }

  it("with ample Unallocated: every event complete, a Goal completing, the paused budget skipped", async () => {
    const { owner, account, today } = await anAccountOfEveryKind("10000.00");
    const forecast = await expectAgreement(owner, account.id, addDays(today, 90));
    const statuses = new Set(forecast.events.map((event) => event.status));
    expect([...statuses].sort()).toEqual(["complete", "skipped"]);
    expect(forecast.budgets.find((b) => b.name === "Holiday")?.completes_on).not.toBeNull();
    expect(forecast.budgets.find((b) => b.name === "Rent")?.refreshed).not.toBe("0.00");
    expect(forecast.events[0]?.date).toBe(addDays(today, -10));
  });

  it("with short Unallocated: partial events, and open occurrences topped up later", async () => {
    const { owner, account, today } = await anAccountOfEveryKind("150.00");
    // A run today leaves occurrences partial; a forecast tops them up as the next run would.
    const first = await t.as(owner).call(fundingRoutes.run, { id: account.id });
    expect(first.json().occurrences_partial).toBeGreaterThan(0);
    await t.as(owner).call(forecastRoutes.get, { id: account.id });
    const forecast = await expectAgreement(owner, account.id, addDays(today, 45));
    expect(forecast.events.some((event) => event.status === "partial")).toBe(true);
    expect(forecast.budgets.some((b) => b.shortfall !== "0.00")).toBe(true);
  });

  it("when Unallocated runs short only later: a forecast to a near date and run-funding agree, then the next stretch too", async () => {
    const { owner, account, today } = await anAccountOfEveryKind("900.00");
    await expectAgreement(owner, account.id, addDays(today, 20));
    await expectAgreement(owner, account.id, addDays(today, 75));
  });
});
