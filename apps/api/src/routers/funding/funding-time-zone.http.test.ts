import { fundingRoutes } from "@allot/contract/funding/routes";
import { fundingOccurrenceRoutes } from "@allot/contract/funding-occurrences/routes";
import { internalTransactionRoutes } from "@allot/contract/internal-transactions/routes";
import { budgets } from "@allot/db/schema/budgets";
import { testEngines } from "@allot/db/testing/test-databases";
import { verifyLedger } from "@allot/domain/ledger/verify-ledger";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { aBudget, anAccount } from "../../../test/testing/fixtures";
import { useTestApp } from "../../../test/testing/test-app";

// America/Santiago went from 2025-09-06 23:59:59 −04:00 straight to 2025-09-07 01:00 −03:00.
const ZONE = "America/Santiago";
const DAY = "2025-09-07";
const DAY_STARTS = "2025-09-07T01:00:00-03:00";

describe.each(testEngines())("funding on a day whose midnight does not exist (%s)", (engine) => {
  const t = useTestApp(engine);

  it("dates the transfer at the day's real start and keeps the event on its day", async () => {
    const owner = await t.user({ timeZone: ZONE });
    const as = t.as(owner);
    const account = await anAccount(t, owner);
    const goal = await aBudget(t, owner, account, {
      funding_schedule: `DTSTART:${DAY.replaceAll("-", "")}\nRRULE:FREQ=WEEKLY`,
    });
    // A budget schedules from the day it was made: date it as made before that day, so a run
    // as of that day reaches the event.
    await t.db.update(budgets).set({ schedulesFrom: "2025-09-01" }).where(eq(budgets.id, goal.id));

    const run = await as.call(fundingRoutes.run, { id: account.id, as_of: DAY });
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json()).toMatchObject({ transfers: 1, occurrences_completed: 1, warnings: [] });

    const transfers = await as.call(internalTransactionRoutes.list, { dst_budget: goal.id });
    expect(transfers.statusCode, transfers.body).toBe(200);
    const results = transfers.json().results;
    expect(results).toHaveLength(1);
    // The same instant however the output writes its offset: 04:00Z, not the 23:00 of the day before.
    expect(Date.parse(results[0]?.effective_date ?? "")).toBe(Date.parse(DAY_STARTS));

    const occurrences = await as.call(fundingOccurrenceRoutes.list, { budget: goal.id });
    expect(occurrences.statusCode, occurrences.body).toBe(200);
    expect(occurrences.json().results.map((o) => o.scheduled_date)).toEqual([DAY]);
    const dates = await as.call(fundingRoutes.eventDates, {
      id: account.id,
      after: "2025-09-06",
      before: "2025-09-08",
    });
    expect(dates.statusCode, dates.body).toBe(200);
    expect(dates.json()).toEqual({ dates: [DAY] });
    expect(await verifyLedger(t.db, account.id)).toEqual([]);
  });
});
