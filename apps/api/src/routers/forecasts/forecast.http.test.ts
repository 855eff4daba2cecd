import { budgetRoutes } from "@allot/contract/budgets/routes";
import { forecastRoutes } from "@allot/contract/forecasts/routes";
import { toMoney } from "@allot/contract/money";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { budgets } from "@allot/db/schema/budgets";
import { testEngines } from "@allot/db/testing/test-databases";
import { addDays } from "@allot/domain/funding/schedule-events";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { databaseDump } from "../../../test/testing/database-dump";
import { aBudget, anAccount } from "../../../test/testing/fixtures";
import { useTestApp } from "../../../test/testing/test-app";
import type { CallOutput } from "../../../test/testing/test-client";

type Forecast = CallOutput<typeof forecastRoutes.get>;

// What any authenticated request writes (its throttle counters), whatever it does.
const PER_REQUEST_TABLES = /^throttle/;
const dumpWithoutCounters = async (dump: Promise<string>) =>
  (await dump)
    .split("\n")
    .filter((line) => !PER_REQUEST_TABLES.test(line))
    .sort()
    .join("\n");

describe.each(testEngines())("GET and POST /bank-accounts/{id}/forecast/ (%s)", (engine) => {
  const t = useTestApp(engine);

  async function anAccountWithBudgets(balance = "1000.00") {
    const owner = await t.user();
    const account = await anAccount(t, owner, { balance });
    const holiday = await aBudget(t, owner, account, { funding_schedule: "RRULE:FREQ=WEEKLY" });
    const gym = await aBudget(t, owner, account, {
      name: "Gym",
      budget_type: "C",
      target_balance: "100",
      funding_amount: "20",
      funding_schedule: "RRULE:FREQ=WEEKLY",
      paused: true,
    });
    const today = (await t.as(owner).call(forecastRoutes.get, { id: account.id })).json().from;
    return { owner, account, holiday, gym, today };
  }

  it("reads and never writes: a GET, and a POST with an Idempotency-Key, leave every table as it was", async () => {
    const { owner, account, holiday } = await anAccountWithBudgets();
    const as = t.as(owner);
    const before = await dumpWithoutCounters(databaseDump(t.db));
    const got = await as.call(forecastRoutes.get, { id: account.id });
    expect(got.statusCode, got.body).toBe(200);
    const key = { headers: { "idempotency-key": "forecast-1" } };
    const first = await as.call(
      forecastRoutes.whatIf,
      { id: account.id, items: [{ description: "Bonus", amount: "100", date: got.json().from }] },
      key,
    );
    expect(first.statusCode, first.body).toBe(200);
    // The same key with another body is no reuse: nothing was recorded for it.
    const second = await as.call(
      forecastRoutes.whatIf,
      { id: account.id, changes: [{ budget: holiday.id, paused: true }] },
      key,
    );
    expect(second.statusCode, second.body).toBe(200);
    expect(second.headers["idempotent-replayed"]).toBeUndefined();
    expect(second.json().events).not.toEqual(first.json().events);
    expect(await dumpWithoutCounters(databaseDump(t.db))).toBe(before);
  });

  it("answers what the changes would do once made: what-ifs equal the same changes written", async () => {
    const { owner, account, holiday, gym, today } = await anAccountWithBudgets();
    const as = t.as(owner);
    const trip = {
      name: "Trip",
      budget_type: "R",
      funding_type: "D",
      target_balance: "120",
      funding_schedule: "RRULE:FREQ=WEEKLY",
      recurrence_schedule: "RRULE:FREQ=MONTHLY",
    } as const;
    const until = addDays(today, 120);
    const whatIf = await as.call(forecastRoutes.whatIf, {
      id: account.id,
      until,
      changes: [
        { budget: holiday.id, funding_amount: "80", target_balance: "700" },
        { budget: gym.id, paused: false },
      ],
      budgets: [trip],
      items: [{ description: "Gift", amount: "250.00", date: today }],
    });
    expect(whatIf.statusCode, whatIf.body).toBe(200);
    const imagined: Forecast = whatIf.json();

    // Now for real: the same changes, the budget made, the gift received today.
    expect(
      (await as.call(budgetRoutes.update, { id: holiday.id, funding_amount: "80", target_balance: "700" }))
        .statusCode,
    ).toBe(200);
    expect((await as.call(budgetRoutes.update, { id: gym.id, paused: false })).statusCode).toBe(200);
    const made = await aBudget(t, owner, account, trip);
    const gift = await as.call(transactionRoutes.create, {
      bank_account: account.id,
      amount: "250.00",
      transaction_date: new Date().toISOString(),
      transaction_type: "ach",
      raw_description: "GIFT",
    });
    expect(gift.statusCode, gift.body).toBe(201);
    const real: Forecast = (await as.call(forecastRoutes.get, { id: account.id, until })).json();

    const ids = new Map([
      ["new-1", made.id],
      ["new-1-fillup", made.fillup_goal ?? ""],
    ]);
    const renamed = (id: string | null) => (id === null ? null : (ids.get(id) ?? id));
    expect(imagined.events.filter((e) => e.kind === "item")).toEqual([
      expect.objectContaining({ date: today, budget: null, amount: "250.00", status: "complete" }),
    ]);
    expect(
      imagined.events.filter((e) => e.kind !== "item").map((e) => ({ ...e, budget: renamed(e.budget) })),
    ).toEqual(real.events);
    // A budget and its fill-up are made at one instant: the engine orders that tie by id, so by name here.
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    expect(
      imagined.budgets.map((b) => ({ ...b, budget: renamed(b.budget), start: undefined })).sort(byName),
    ).toEqual(real.budgets.map((b) => ({ ...b, start: undefined })).sort(byName));
    expect(imagined.unallocated.end).toBe(real.unallocated.end);
    expect(imagined.unallocated.lowest).toEqual(real.unallocated.lowest);
    expect(imagined.series.map((p) => p.unallocated)).toEqual(real.series.map((p) => p.unallocated));
    expect(toMoney(real.unallocated.start).minus(imagined.unallocated.start).toFixed(2)).toBe("250.00");
  });

  it("draws the series at each interval's days and at until", async () => {
    const { owner, account, today } = await anAccountWithBudgets();
    const as = t.as(owner);
    const until = addDays(today, 40);
    const points = async (interval: "day" | "week" | "month") =>
      (await as.call(forecastRoutes.get, { id: account.id, until, interval }))
        .json()
        .series.map((p) => p.date);
    const days = await points("day");
    expect(days).toHaveLength(41);
    expect(days[0]).toBe(today);
    const weeks = await points("week");
    expect(weeks.slice(0, -1).every((date) => new Date(`${date}T00:00:00Z`).getUTCDay() === 0)).toBe(true);
    expect(weeks.at(-1)).toBe(until);
    const months = await points("month");
    expect(months.at(-1)).toBe(until);
    for (const date of months.slice(0, -1)) expect(addDays(date, 1).endsWith("-01")).toBe(true);
    // The default is monthly, 90 days ahead.
    const plain = (await as.call(forecastRoutes.get, { id: account.id })).json();
    expect(plain.until).toBe(addDays(today, 90));
  });

  it("finds the lowest point and the first negative day an outgoing item makes", async () => {
    const { owner, account, holiday, today } = await anAccountWithBudgets("300.00");
    const as = t.as(owner);
    const response = await as.call(forecastRoutes.whatIf, {
      id: account.id,
      until: addDays(today, 60),
      items: [
        { description: "Car repair", amount: "-400.00", date: addDays(today, 10) },
        {
          description: "Salary",
          amount: "500.00",
          schedule: `DTSTART:${addDays(today, 20).replaceAll("-", "")}\nRRULE:FREQ=MONTHLY`,
        },
        { description: "Savings", amount: "15.00", date: addDays(today, 3), budget: holiday.id },
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    const forecast = response.json();
    expect(forecast.unallocated.first_negative).toBe(addDays(today, 10));
    expect(forecast.unallocated.lowest.date).toBe(addDays(today, 10));
    expect(toMoney(forecast.unallocated.lowest.balance).lt(0)).toBe(true);
    const salaries = forecast.events.filter((e) => e.description === "Salary");
    expect(salaries.map((e) => e.date)).toEqual([addDays(today, 20), expect.any(String)]);
    // An item is applied before the funding events of its day.
    const day = forecast.events.filter((e) => e.date === addDays(today, 20));
    expect(day[0]?.kind).toBe("item");
    const saved = forecast.events.find((e) => e.description === "Savings");
    expect(saved).toMatchObject({ kind: "item", budget: holiday.id, amount: "15.00" });
  });

  it("says what it assumes: automatic funding, an import gate before until, overdue events, what-ifs", async () => {
    const { owner, account, holiday, today } = await anAccountWithBudgets();
    const as = t.as(owner);
    const plain = (await as.call(forecastRoutes.get, { id: account.id })).json().assumptions;
    expect(plain).toHaveLength(2);
    expect(plain[1]).toMatch(/^Automatic funding is off for this account/);

    await t.db
      .update(bankAccounts)
      .set({ autoFundingEnabled: true, lastPostedThrough: addDays(today, -1) })
      .where(eq(bankAccounts.id, account.id));
    // Its weekly events since two weeks ago have not run.
    const since = addDays(today, -14);
    await t.db
      .update(budgets)
      .set({
        schedulesFrom: since,
        fundingSchedule: `DTSTART:${since.replaceAll("-", "")}\nRRULE:FREQ=WEEKLY`,
      })
      .where(eq(budgets.id, holiday.id));
    const said = (
      await as.call(forecastRoutes.whatIf, { id: account.id, changes: [{ budget: holiday.id, memo: "x" }] })
    ).json().assumptions;
    expect(said[1]).toBe("Funding runs on every event's day, as the scheduler runs it.");
    expect(said[2]).toContain(`the latest imported posting date (${addDays(today, -1)})`);
    expect(said[3]).toMatch(
      new RegExp(`^2 events due before today \\(the first on ${since}\\) have not run yet`),
    );
    expect(said[4]).toBe("What-ifs applied in memory only, never stored: 0 items, 0 new budgets, 1 change.");
  });

  it("reads with an API key too", async () => {
    const { owner, account } = await anAccountWithBudgets();
    const response = await t.as(await t.apiKey(owner)).call(forecastRoutes.get, { id: account.id });
    expect(response.statusCode, response.body).toBe(200);
  });
});
