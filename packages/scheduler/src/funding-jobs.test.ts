import type { DatabaseHandle } from "@allot/db/create-database";
import { accountEvents } from "@allot/db/schema/account-events";
import { budgets } from "@allot/db/schema/budgets";
import { fundingOccurrences } from "@allot/db/schema/funding-occurrences";
import { openTestDatabase, testEngines } from "@allot/db/testing/test-databases";
import { createBudget } from "@allot/domain/budgets/create-budget";
import { localDate } from "@allot/domain/calendar/local-days";
import { addDays } from "@allot/domain/funding/schedule-events";
import { anAccount, anOwner } from "@allot/domain/testing/fixtures";
import { asUser } from "@allot/domain/testing/use-case-context";
import { and, asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountJobs } from "./account-jobs";
import { createScheduler } from "./scheduler";

// India keeps UTC+05:30 all year: local wall times map to fixed UTC instants, whatever the date.
const ZONE = "Asia/Kolkata";
const kolkata = (date: string, time: string) => new Date(`${date}T${time}:00+05:30`);

/** The real engine through the real account jobs: schedules anchored at today's local date. */
describe.each(testEngines())("fund at 23:00 and recur at 03:00 local, end to end (%s)", (engine) => {
  let database: DatabaseHandle;
  const today = localDate(new Date(), ZONE);
  const day = (n: number) => addDays(today, n);
  const ids = { account: "", goal: "", recurring: "", fillup: "", unallocated: "" };
  const balances = async () => {
    const rows = await database.db.select().from(budgets);
    const of = (id: string) => rows.find((row) => row.id === id)?.balance;
    return {
      goal: of(ids.goal),
      recurring: of(ids.recurring),
      fillup: of(ids.fillup),
      unallocated: of(ids.unallocated),
    };
  };

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    const { db } = database;
    const owner = (await anOwner(db, { email: "kolkata@example.com", timezone: ZONE })).actor;
    const account = await anAccount(db, owner, { balance: "500.00", autoFunding: true });
    // A daily 25.00 toward 100.00, from today.
    const goal = await createBudget(asUser(db, owner), {
      name: "Holiday",
      bank_account: account.id,
      budget_type: "G",
      funding_type: "F",
      target_balance: "100.00",
      funding_amount: "25.00",
      funding_schedule: "RRULE:FREQ=DAILY",
    });
    // 60.00 refreshed monthly from the day after tomorrow; its fill-up is funded daily till then.
    const recurring = await createBudget(asUser(db, owner), {
      name: "Phone",
      bank_account: account.id,
      budget_type: "R",
      funding_type: "D",
      target_balance: "60.00",
      funding_schedule: "RRULE:FREQ=DAILY",
      recurrence_schedule: `DTSTART:${day(2).replaceAll("-", "")}\nRRULE:FREQ=MONTHLY`,
    });
    ids.account = account.id;
    ids.goal = goal.id;
    ids.recurring = recurring.id;
    const rows = await db.select().from(budgets).where(eq(budgets.bankAccountId, account.id));
    ids.fillup = rows.find((row) => row.budgetType === "A")?.id ?? "";
    ids.unallocated = rows.find((row) => row.isUnallocated)?.id ?? "";
  });
  afterAll(async () => {
    await database?.close();
  });

  it("funds due budgets at 23:00, refreshes the Recurring budget at 03:00, each once", async () => {
    const scheduler = createScheduler(database, { accountJobs });
    // 22:59 tomorrow: the recur job's daily run (after 03:00) finds nothing due; no fund run yet.
    expect(await scheduler.runDue(kolkata(day(1), "22:59"))).toEqual([
      expect.objectContaining({ job: "recur", local_date: day(1), status: "done", transfers: 0 }),
    ]);
    expect(await balances()).toEqual({
      goal: "0.00",
      recurring: "0.00",
      fillup: "0.00",
      unallocated: "500.00",
    });

    // 23:00 tomorrow: the fund events of today and tomorrow: 25.00 a day to the goal, 30.00 a day
    // to the fill-up (60.00 over the two fund events before the refresh).
    const funded = await scheduler.runDue(kolkata(day(1), "23:00"));
    expect(funded).toEqual([
      expect.objectContaining({ job: "fund", local_date: day(1), status: "done", occurrences_completed: 4 }),
    ]);
    expect(await balances()).toEqual({
      goal: "50.00",
      recurring: "0.00",
      fillup: "60.00",
      unallocated: "390.00",
    });
    // The run is in the account's activity trail under the scheduler's name (the 22:59 run moved
    // nothing and recorded nothing).
    const events = await database.db
      .select()
      .from(accountEvents)
      .where(
        and(
          eq(accountEvents.bankAccountId, ids.account),
          inArray(accountEvents.type, ["funding.completed", "funding.underfunded"]),
        ),
      );
    expect(
      events.map((event) => ({
        type: event.type,
        actor: { kind: event.actorKind, username: event.actorUsername, api_key: event.actorApiKey },
        summary: event.summary,
      })),
    ).toEqual([
      {
        type: "funding.completed",
        actor: { kind: "scheduler", username: null, api_key: null },
        summary: "The scheduler funded 2 budgets in 4 transfers",
      },
    ]);
    expect(await scheduler.runDue(kolkata(day(1), "23:30"))).toEqual([]);

    // 03:00 the day after: the refresh (with the fill-up's own event of that date, which comes
    // first and works toward next month's refresh: the fill-up is full, it asks nothing) fills the
    // Recurring budget; the goal's event of that date waits for 23:00.
    const refreshed = await scheduler.runDue(kolkata(day(2), "03:00"));
    expect(refreshed).toEqual([
      expect.objectContaining({ job: "recur", local_date: day(2), status: "done", occurrences_completed: 2 }),
    ]);
    expect(await balances()).toEqual({
      goal: "50.00",
      recurring: "60.00",
      fillup: "0.00",
      unallocated: "390.00",
    });
    expect(await scheduler.runDue(kolkata(day(2), "12:00"))).toEqual([]);

    const goalEvents = await database.db
      .select({
        kind: fundingOccurrences.kind,
        date: fundingOccurrences.scheduledDate,
        status: fundingOccurrences.status,
      })
      .from(fundingOccurrences)
      .where(eq(fundingOccurrences.budgetId, ids.goal))
      .orderBy(asc(fundingOccurrences.scheduledDate));
    expect(goalEvents).toEqual([
      { kind: "fund", date: day(0), status: "COMPLETE" },
      { kind: "fund", date: day(1), status: "COMPLETE" },
    ]);

    // 23:00 that day: the goal's event; the fill-up's was done at 03:00 and is not done twice (run
    // now, it would ask for a share of next month's 60.00).
    await scheduler.runDue(kolkata(day(2), "23:00"));
    expect(await balances()).toEqual({
      goal: "75.00",
      recurring: "60.00",
      fillup: "0.00",
      unallocated: "365.00",
    });
  });
});
