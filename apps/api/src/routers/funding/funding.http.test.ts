import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { budgetRoutes } from "@allot/contract/budgets/routes";
import { fundingRoutes } from "@allot/contract/funding/routes";
import { fundingOccurrenceRoutes } from "@allot/contract/funding-occurrences/routes";
import { internalTransactionRoutes } from "@allot/contract/internal-transactions/routes";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { notifications } from "@allot/db/schema/notifications";
import { testEngines } from "@allot/db/testing/test-databases";
import { localDate } from "@allot/domain/calendar/local-days";
import { verifyLedger } from "@allot/domain/ledger/verify-ledger";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { aBank, anAccount, fillupOf } from "../../../test/testing/fixtures";
import { type TestUser, useTestApp } from "../../../test/testing/test-app";

// Schedules are anchored relative to today, so the tests mean the same whenever they run; the
// owners keep UTC days, so "today" is the accounts' today at every hour.
const today = localDate(new Date(), "UTC");
const day = (n: number) => {
  const at = new Date(`${today}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + n);
  return at.toISOString().slice(0, 10);
};
const dtstart = (n: number) => `DTSTART:${day(n).replaceAll("-", "")}`;
const weekly = (n: number) => `${dtstart(n)}\nRRULE:FREQ=WEEKLY`;
// A Goal of 500 funded 50 a week from tomorrow: the workhorse of these tests.
const weeklyGoal = {
  budget_type: "G",
  funding_type: "F",
  target_balance: "500",
  funding_amount: "50",
  funding_schedule: weekly(1),
};

type FieldErrors = Record<string, string[]>;

interface Account {
  id: string;
  unallocated_budget: string;
}

describe.each(testEngines())("funding engine over HTTP (%s)", (engine) => {
  const t = useTestApp(engine);
  let bankId: string;
  let owner: TestUser;

  beforeAll(async () => {
    bankId = (await aBank(t, { name: "Funding Bank" })).id;
    owner = await t.user({ timeZone: "UTC" });
  });

  const newAccount = (available = "1000.00", user = owner): Promise<Account> =>
    anAccount(t, user, { bank: bankId, balance: available });
  const newBudget = async (account: Account, fields: Record<string, unknown>) => {
    const response = await t
      .as(owner)
      .callUnchecked(budgetRoutes.create, { name: "Holiday", bank_account: account.id, ...fields });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  };
  const budget = async (id: string | null) => {
    if (id === null) throw new Error("no budget id");
    const response = await t.as(owner).call(budgetRoutes.get, { id });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const patch = async (id: string, payload: Record<string, unknown>) => {
    const response = await t.as(owner).callUnchecked(budgetRoutes.update, { id, ...payload });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const run = async (account: Account, asOf?: string) => {
    const response = await t
      .as(owner)
      .call(fundingRoutes.run, { id: account.id, ...(asOf ? { as_of: asOf } : {}) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const balance = async (id: string) => (await budget(id)).balance;
  const occurrences = async (budgetId: string) => {
    const response = await t
      .as(owner)
      .call(fundingOccurrenceRoutes.list, { budget: budgetId, ordering: "scheduled_date" });
    expect(response.statusCode, response.body).toBe(200);
    return response
      .json()
      .results.map((o: { scheduled_date: string; status: string; kind: string }) => [
        o.scheduled_date,
        o.kind,
        o.status,
      ]);
  };
  const deposit = async (account: Account, amount: string) => {
    const response = await t.as(owner).call(transactionRoutes.create, {
      bank_account: account.id,
      amount,
      transaction_date: `${today}T12:00:00Z`,
      raw_description: "Pay",
      transaction_type: "ach",
    });
    expect(response.statusCode, response.body).toBe(201);
  };
  const transfer = async (account: Account, amount: string, source: string, destination: string) => {
    const response = await t.as(owner).call(internalTransactionRoutes.create, {
      bank_account: account.id,
      amount,
      src_budget: source,
      dst_budget: destination,
    });
    expect(response.statusCode, response.body).toBe(201);
  };
  /** [date, amount] of each transfer into a budget, by date. */
  const fundedInto = async (id: string) => {
    const response = await t
      .as(owner)
      .call(internalTransactionRoutes.list, { dst_budget: id, page_size: 100 });
    expect(response.statusCode, response.body).toBe(200);
    return response
      .json()
      .results.map((r: { effective_date: string; amount: string }) => [
        r.effective_date.slice(0, 10),
        r.amount,
      ])
      .sort((a: string[], b: string[]) => (a[0] ?? "").localeCompare(b[0] ?? ""));
  };
  const ledgerHolds = async (account: Account) => expect(await verifyLedger(t.db, account.id)).toEqual([]);

  it("catches up several weeks of a fixed Goal, once, and keeps the ledger right", async () => {
    const account = await newAccount();
    const goal = await newBudget(account, weeklyGoal);
    expect(goal.next_funding).toEqual({ date: day(1), amount: "50.00", amount_currency: "USD" });
    expect(await run(account, day(22))).toEqual({
      transfers: 4,
      occurrences_completed: 4,
      occurrences_partial: 0,
      warnings: [],
      skipped_budgets: [],
    });
    expect(await balance(goal.id)).toBe("200.00");
    expect((await budget(goal.id)).funded_amount).toBe("200.00");
    expect(await balance(account.unallocated_budget)).toBe("800.00");
    expect(await occurrences(goal.id)).toEqual([
      [day(1), "fund", "COMPLETE"],
      [day(8), "fund", "COMPLETE"],
      [day(15), "fund", "COMPLETE"],
      [day(22), "fund", "COMPLETE"],
    ]);
    // Running again, or for an earlier date, funds nothing twice.
    expect((await run(account, day(22))).transfers).toBe(0);
    expect((await run(account, day(10))).transfers).toBe(0);
    expect((await budget(goal.id)).next_funding).toEqual({
      date: day(29),
      amount: "50.00",
      amount_currency: "USD",
    });
    // Each transfer is dated on its event's day.
    const transfers = await t.as(owner).call(internalTransactionRoutes.list, { dst_budget: goal.id });
    const dates = transfers
      .json()
      .results.map((r: { effective_date: string }) => r.effective_date.slice(0, 10));
    expect(dates.sort()).toEqual([day(1), day(8), day(15), day(22)]);
    await ledgerHolds(account);
  });

  it("spreads a target-date Goal over its events to the cent and marks it complete", async () => {
    const account = await newAccount();
    const goal = await newBudget(account, {
      budget_type: "G",
      funding_type: "D",
      target_balance: "100",
      target_date: day(15),
      funding_schedule: weekly(1),
    });
    expect(goal.next_funding?.amount).toBe("33.33");
    await run(account, day(1));
    expect(await balance(goal.id)).toBe("33.33");
    await run(account, day(8));
    // (100 − 33.33) ÷ 2 = 33.335, rounded half-up; the last event takes what is left, 33.33.
    expect(await balance(goal.id)).toBe("66.67");
    await run(account, day(29));
    const done = await budget(goal.id);
    expect(done.balance).toBe("100.00");
    expect(done.complete).toBe(true);
    expect(done.next_funding).toBeNull();
    expect(await occurrences(goal.id)).toHaveLength(3);
    await ledgerHolds(account);
  });

  it("refills a Capped budget after spending", async () => {
    const account = await newAccount();
    const capped = await newBudget(account, {
      budget_type: "C",
      funding_type: "F",
      target_balance: "80",
      funding_amount: "50",
      funding_schedule: weekly(1),
    });
    await run(account, day(8));
    expect(await balance(capped.id)).toBe("80.00");
    await transfer(account, "45", capped.id, account.unallocated_budget);
    await run(account, day(15));
    expect(await balance(capped.id)).toBe("80.00");
    expect(await balance(account.unallocated_budget)).toBe("920.00");
    await ledgerHolds(account);
  });

  it("fills a Recurring budget through its fill-up and refreshes it, fund before recur on one date", async () => {
    const account = await newAccount();
    const rent = await newBudget(account, {
      name: "Rent",
      budget_type: "R",
      funding_type: "D",
      target_balance: "120",
      funding_schedule: weekly(7),
      recurrence_schedule: `${dtstart(21)}\nRRULE:FREQ=WEEKLY;INTERVAL=2`,
    });
    expect(rent.next_funding).toBeNull();
    expect(rent.next_recurrence).toBe(day(21));
    const fillup = await budget(fillupOf(rent));
    // Fund events on days 7 and 14 lead to the refresh on day 21: 60 each. Day 21's own event
    // belongs to the next cycle.
    expect(fillup.next_funding).toEqual({ date: day(7), amount: "60.00", amount_currency: "USD" });
    await run(account, day(14));
    expect(await balance(fillup.id)).toBe("120.00");
    // 30 taken from the fill-up: day 21's event, run before the refresh, asks (120 − 90) ÷ 2
    // (days 21 and 28 lead to the refresh on day 35) and the refresh takes it along.
    await transfer(account, "30", fillup.id, account.unallocated_budget);
    const result = await run(account, day(21));
    expect(result).toEqual({
      transfers: 2,
      occurrences_completed: 2,
      occurrences_partial: 0,
      warnings: [`Rent: the refresh of ${day(21)} was 15.00 short; its fill-up held 105.00.`],
      skipped_budgets: [],
    });
    expect(await fundedInto(fillup.id)).toEqual([
      [day(7), "60.00"],
      [day(14), "60.00"],
      [day(21), "15.00"],
    ]);
    expect(await balance(fillup.id)).toBe("0.00");
    const refreshed = await budget(rent.id);
    expect(refreshed.balance).toBe("105.00");
    expect(refreshed.complete).toBe(false);
    expect(refreshed.next_recurrence).toBe(day(35));
    expect(await occurrences(rent.id)).toEqual([[day(21), "recur", "COMPLETE"]]);
    // Both runs moved money and the second refreshed Rent: the owner is told.
    const told = await t.db
      .select({ kind: notifications.kind, payload: notifications.payload })
      .from(notifications)
      .where(eq(notifications.bankAccountId, account.id));
    expect(told.map((n) => n.kind).sort()).toEqual([
      "funding_complete",
      "funding_complete",
      "recurring_budget_refreshed",
    ]);
    expect(told.find((n) => n.kind === "recurring_budget_refreshed")?.payload).toEqual({ budgets: "Rent" });
    // Spending 85 of it, the next cycle fills the fill-up on day 28 (its one event before day 35)
    // and tops Rent up to the target again.
    await transfer(account, "85", rent.id, account.unallocated_budget);
    expect((await budget(fillup.id)).next_funding).toEqual({
      date: day(28),
      amount: "120.00",
      amount_currency: "USD",
    });
    expect((await run(account, day(35))).warnings).toEqual([]);
    expect(await balance(rent.id)).toBe("120.00");
    expect(await balance(fillup.id)).toBe("20.00");
    expect(await balance(account.unallocated_budget)).toBe("860.00");
    await ledgerHolds(account);
  });

  describe("the origin's worked examples", () => {
    // A year ahead, so every event falls after the day the budget is made, whenever this runs.
    const year = Number(today.slice(0, 4)) + 1;
    const on = (monthDay: string) => `${year}-${monthDay}`;
    const anchor = (monthDay: string) => `DTSTART:${year}${monthDay.replace("-", "")}`;
    const recurringBudget = (account: Account, fields: Record<string, unknown>) =>
      newBudget(account, { name: "Rent", budget_type: "R", funding_type: "D", ...fields });

    it("funds a yearly Sep 15 refresh on the 15th and month-end from May 15: 3400.00 ÷ 8, then 2975.00 ÷ 7", async () => {
      const account = await newAccount("10000.00");
      const tax = await recurringBudget(account, {
        name: "Tax",
        target_balance: "3400",
        funding_schedule: `${anchor("05-15")}\nRRULE:FREQ=MONTHLY;BYMONTHDAY=15,-1`,
        recurrence_schedule: `${anchor("09-15")}\nRRULE:FREQ=YEARLY`,
      });
      const fillup = fillupOf(tax);
      // May 15, May 31, Jun 15, Jun 30, Jul 15, Jul 31, Aug 15, Aug 31 come before the refresh.
      expect((await budget(fillup)).next_funding).toEqual({
        date: on("05-15"),
        amount: "425.00",
        amount_currency: "USD",
      });
      await run(account, on("05-15"));
      expect(await balance(fillup)).toBe("425.00");
      expect((await budget(fillup)).next_funding).toEqual({
        date: on("05-31"),
        amount: "425.00",
        amount_currency: "USD",
      });
      await run(account, on("05-31"));
      expect(await balance(fillup)).toBe("850.00");

      // The refresh day's event runs first, toward next year's refresh, and finds the fill-up
      // full; the refresh moves 3400.00; the 23 events left share the next 3400.00.
      expect(await run(account, on("09-30"))).toMatchObject({ occurrences_completed: 9, warnings: [] });
      expect(await fundedInto(fillup)).toEqual([
        ...["05-15", "05-31", "06-15", "06-30", "07-15", "07-31", "08-15", "08-31"].map((d) => [
          on(d),
          "425.00",
        ]),
        [on("09-30"), "147.83"],
      ]);
      expect(await occurrences(fillup)).toContainEqual([on("09-15"), "fund", "COMPLETE"]);
      const refreshed = await budget(tax.id);
      expect(refreshed.balance).toBe("3400.00");
      expect(refreshed.complete).toBe(true);
      expect(await balance(fillup)).toBe("147.83");
      await ledgerHolds(account);
    });

    it("funds a monthly refresh from Mar 1 monthly from Jan 1: 100.00 ÷ 2 = 50.00 on Jan 1", async () => {
      const account = await newAccount();
      const rent = await recurringBudget(account, {
        target_balance: "100",
        funding_schedule: `${anchor("01-01")}\nRRULE:FREQ=MONTHLY`,
        recurrence_schedule: `${anchor("03-01")}\nRRULE:FREQ=MONTHLY`,
      });
      const fillup = fillupOf(rent);
      expect((await budget(fillup)).next_funding).toEqual({
        date: on("01-01"),
        amount: "50.00",
        amount_currency: "USD",
      });
      await run(account, on("01-01"));
      expect(await balance(fillup)).toBe("50.00");
      expect(await run(account, on("03-01"))).toMatchObject({ warnings: [] });
      expect(await fundedInto(fillup)).toEqual([
        [on("01-01"), "50.00"],
        [on("02-01"), "50.00"],
      ]);
      expect(await balance(rent.id)).toBe("100.00");
      expect(await balance(fillup)).toBe("0.00");
      await ledgerHolds(account);
    });

    it("refreshes a budget of 100.00 from a fill-up holding 60.00: moves 60.00, not complete, 40.00 short", async () => {
      const account = await newAccount();
      // Funded from Jan 2: no fund event comes before the refresh of Jan 1.
      const rent = await recurringBudget(account, {
        target_balance: "100",
        funding_schedule: `${anchor("01-02")}\nRRULE:FREQ=MONTHLY`,
        recurrence_schedule: `${anchor("01-01")}\nRRULE:FREQ=MONTHLY`,
      });
      await transfer(account, "60", account.unallocated_budget, fillupOf(rent));
      expect(await run(account, on("01-01"))).toEqual({
        transfers: 1,
        occurrences_completed: 1,
        occurrences_partial: 0,
        warnings: [`Rent: the refresh of ${on("01-01")} was 40.00 short; its fill-up held 60.00.`],
        skipped_budgets: [],
      });
      const refreshed = await budget(rent.id);
      expect(refreshed.balance).toBe("60.00");
      expect(refreshed.complete).toBe(false);
      expect(await balance(fillupOf(rent))).toBe("0.00");
      await ledgerHolds(account);
    });
  });

  it("moves what Unallocated holds, warns about the shortfall, and tops it up later", async () => {
    const account = await newAccount("30.00");
    const goal = await newBudget(account, {
      name: "Car",
      ...weeklyGoal,
    });
    const first = await run(account, day(1));
    expect(first).toMatchObject({ transfers: 1, occurrences_completed: 0, occurrences_partial: 1 });
    expect(first.warnings).toEqual([
      `Car: the funding of ${day(1)} is 20.00 short; Unallocated held 30.00. A later run tops it up.`,
    ]);
    expect(await balance(account.unallocated_budget)).toBe("0.00");
    expect(await occurrences(goal.id)).toEqual([[day(1), "fund", "PARTIAL"]]);
    expect((await budget(goal.id)).next_funding).toEqual({
      date: day(1),
      amount: "20.00",
      amount_currency: "USD",
    });
    // Nothing to give: still partial, and the run says so.
    expect((await run(account, day(1))).occurrences_partial).toBe(1);
    await deposit(account, "100.00");
    const second = await run(account, day(8));
    expect(second).toMatchObject({
      transfers: 2,
      occurrences_completed: 2,
      occurrences_partial: 0,
      warnings: [],
    });
    expect(await balance(goal.id)).toBe("100.00");
    expect(await occurrences(goal.id)).toEqual([
      [day(1), "fund", "COMPLETE"],
      [day(8), "fund", "COMPLETE"],
    ]);
    await ledgerHolds(account);
  });

  it("skips a paused budget, and resuming drops the missed events with a warning", async () => {
    const account = await newAccount();
    const goal = await newBudget(account, {
      name: "Paused",
      ...weeklyGoal,
      paused: true,
    });
    expect(goal.next_funding).toBeNull();
    const result = await run(account, day(8));
    expect(result).toMatchObject({ transfers: 0, skipped_budgets: ["Paused"] });
    expect(await occurrences(goal.id)).toEqual([
      [day(1), "fund", "SKIPPED"],
      [day(8), "fund", "SKIPPED"],
    ]);
    // A second run records nothing twice.
    expect((await run(account, day(8))).skipped_budgets).toEqual(["Paused"]);
    expect(await occurrences(goal.id)).toHaveLength(2);
    const resumed = await patch(goal.id, { paused: false });
    expect(resumed.warnings).toEqual([
      `Paused: 2 funding events missed while paused will not run (${day(1)}, ${day(8)}).`,
    ]);
    expect(resumed.next_funding).toEqual({ date: day(15), amount: "50.00", amount_currency: "USD" });
    expect(await run(account, day(15))).toMatchObject({ transfers: 1, skipped_budgets: [] });
    expect(await balance(goal.id)).toBe("50.00");
  });

  it("pauses a Recurring budget's fill-up with it and refuses pausing the fill-up alone", async () => {
    const account = await newAccount();
    const rent = await newBudget(account, {
      name: "Rent",
      budget_type: "R",
      funding_type: "D",
      target_balance: "120",
      funding_schedule: weekly(1),
      recurrence_schedule: `${dtstart(14)}\nRRULE:FREQ=MONTHLY`,
    });
    await patch(rent.id, { paused: true });
    expect((await budget(fillupOf(rent))).paused).toBe(true);
    const refused = await t.as(owner).call(budgetRoutes.update, { id: fillupOf(rent), paused: false });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().paused).toBeDefined();
    expect(await run(account, day(15))).toMatchObject({ transfers: 0, skipped_budgets: ["Rent"] });
    const resumed = await patch(rent.id, { paused: false });
    expect(resumed.warnings).toHaveLength(2);
    expect((await budget(fillupOf(rent))).paused).toBe(false);
  });

  it("does not fund archived budgets", async () => {
    const account = await newAccount();
    const goal = await newBudget(account, weeklyGoal);
    const archived = await t.as(owner).call(budgetRoutes.archive, { id: goal.id });
    expect(archived.statusCode).toBe(200);
    expect(archived.json().next_funding).toBeNull();
    expect((await run(account, day(22))).transfers).toBe(0);
    expect(await occurrences(goal.id)).toEqual([]);
  });

  it("waits with events dated after the latest imported posting date", async () => {
    const account = await newAccount();
    const goal = await newBudget(account, weeklyGoal);
    const imported = await t
      .as(owner)
      .call(bankAccountRoutes.markImported, { id: account.id, last_posted_through: day(8) });
    expect(imported.statusCode).toBe(200);
    const gated = await run(account, day(22));
    expect(gated.transfers).toBe(2);
    expect(gated.warnings).toEqual([
      `Events after ${day(8)}, the latest imported posting date, wait for an import that reaches them.`,
    ]);
    await t.as(owner).call(bankAccountRoutes.markImported, { id: account.id, last_posted_through: day(22) });
    expect((await run(account, day(22))).transfers).toBe(2);
    expect(await balance(goal.id)).toBe("200.00");
  });

  it("reports funding_pace ahead, on track and behind for target-date Goals", async () => {
    const account = await newAccount();
    // Weekly from today through day 28: 5 events, today's elapsed: 20 % of the schedule.
    const goal = (target_date: string) =>
      newBudget(account, {
        budget_type: "G",
        funding_type: "D",
        target_balance: "100",
        target_date,
        funding_schedule: weekly(0),
      });
    const give = (id: string, amount: string) => transfer(account, amount, account.unallocated_budget, id);
    const behind = await goal(day(28));
    expect(behind.funding_pace).toBe("behind");
    const onTrack = await goal(day(28));
    await give(onTrack.id, "17");
    expect((await budget(onTrack.id)).funding_pace).toBe("on_track");
    const ahead = await goal(day(28));
    await give(ahead.id, "50");
    expect((await budget(ahead.id)).funding_pace).toBe("ahead");
    const late = await goal(day(-1));
    expect(late.funding_pace).toBe("behind");
    const fixed = await newBudget(account, {
      budget_type: "G",
      funding_type: "F",
      target_balance: "100",
      funding_amount: "10",
      funding_schedule: weekly(0),
    });
    expect(fixed.funding_pace).toBeNull();
  });

  it("lists event dates in (after, before] and sums next funding by schedule", async () => {
    const account = await newAccount();
    const schedule = weekly(1);
    const fields = { budget_type: "G", funding_type: "F", target_balance: "500", funding_schedule: schedule };
    await newBudget(account, { ...fields, name: "A", funding_amount: "10" });
    await newBudget(account, { ...fields, name: "B", funding_amount: "15.50" });
    await newBudget(account, { ...fields, name: "Paused", funding_amount: "99", paused: true });
    await newBudget(account, {
      name: "Soon",
      budget_type: "C",
      funding_type: "F",
      target_balance: "40",
      funding_amount: "40",
      funding_schedule: `${dtstart(3)}\nRRULE:FREQ=MONTHLY`,
    });
    const dates = await t
      .as(owner)
      .call(fundingRoutes.eventDates, { id: account.id, after: day(1), before: day(15) });
    expect(dates.statusCode, dates.body).toBe(200);
    expect(dates.json()).toEqual({ dates: [day(3), day(8), day(15)] });
    const summary = await t.as(owner).call(fundingRoutes.summary, { id: account.id });
    expect(summary.statusCode, summary.body).toBe(200);
    expect(summary.json()).toEqual({
      schedules: [
        { schedule, next_date: day(1), total_amount: "25.50", currency: "USD", budget_count: 2 },
        {
          schedule: `${dtstart(3)}\nRRULE:FREQ=MONTHLY`,
          next_date: day(3),
          total_amount: "40.00",
          currency: "USD",
          budget_count: 1,
        },
      ],
      total_amount: "65.50",
      currency: "USD",
    });
  });

  it("answers 400 on bad dates and 404 for another user's account", async () => {
    const account = await newAccount();
    const stranger = await t.user({ timeZone: "UTC" });
    const missingBefore = await t
      .as(owner)
      .callUnchecked(fundingRoutes.eventDates, { id: account.id, after: day(1) });
    expect(missingBefore.statusCode).toBe(400);
    expect(missingBefore.json<FieldErrors>().before).toBeDefined();
    const reversed = await t
      .as(owner)
      .call(fundingRoutes.eventDates, { id: account.id, after: day(5), before: day(1) });
    expect(reversed.statusCode).toBe(400);
    const badAsOf = await t.as(owner).call(fundingRoutes.run, { id: account.id, as_of: "2026-02-30" });
    expect(badAsOf.statusCode).toBe(400);
    expect(badAsOf.json<FieldErrors>().as_of).toBeDefined();
    const farAhead = await t.as(owner).call(fundingRoutes.run, { id: account.id, as_of: "9999-01-01" });
    expect(farAhead.statusCode).toBe(400);
    const id = account.id;
    for (const [label, send] of [
      ["run-funding", () => t.as(stranger).call(fundingRoutes.run, { id })],
      ["funding-summary", () => t.as(stranger).call(fundingRoutes.summary, { id })],
      [
        "funding-event-dates",
        () => t.as(stranger).call(fundingRoutes.eventDates, { id, after: day(1), before: day(5) }),
      ],
    ] as const) {
      const response = await send();
      expect(response.statusCode, label).toBe(404);
    }
  });

  it("answers with zeros when nothing is due, whatever auto_funding_enabled says", async () => {
    const account = await newAccount();
    expect(await run(account)).toEqual({
      transfers: 0,
      occurrences_completed: 0,
      occurrences_partial: 0,
      warnings: [],
      skipped_budgets: [],
    });
  });

  // PGlite has one connection: runs cannot race there.
  if (engine === "postgres")
    it("never funds twice when three runs race", async () => {
      const account = await newAccount();
      const goals = [];
      for (let i = 0; i < 5; i += 1)
        goals.push(
          await newBudget(account, {
            name: `Goal ${i}`,
            budget_type: "G",
            funding_type: "F",
            target_balance: "500",
            funding_amount: "10",
            funding_schedule: weekly(1),
          }),
        );
      const results = await Promise.all([
        run(account, day(29)),
        run(account, day(29)),
        run(account, day(29)),
      ]);
      expect(results.map((r) => r.transfers).sort()).toEqual([0, 0, 25]);
      for (const goal of goals) expect(await balance(goal.id)).toBe("50.00");
      expect(await balance(account.unallocated_budget)).toBe("750.00");
      await ledgerHolds(account);
    });
});
