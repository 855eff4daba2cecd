import { createDatabase, type DatabaseHandle } from "@allot/db/create-database";
import { rowsOf } from "@allot/db/rows-of";
import { budgets } from "@allot/db/schema/budgets";
import { fundingOccurrences } from "@allot/db/schema/funding-occurrences";
import { internalTransactions } from "@allot/db/schema/internal-transactions";
import { scheduledRuns } from "@allot/db/schema/scheduled-runs";
import { createBudget } from "@allot/domain/budgets/create-budget";
import { localDate } from "@allot/domain/calendar/local-days";
import { addDays } from "@allot/domain/funding/schedule-events";
import { verifyLedger } from "@allot/domain/ledger/verify-ledger";
import { anAccount, anOwner } from "@allot/domain/testing/fixtures";
import { TEST_SECRETS_KEYS, testVault } from "@allot/domain/testing/test-vault";
import { asUser } from "@allot/domain/testing/use-case-context";
import { jobsFor } from "@allot/scheduler/jobs";
import { asc, eq, inArray, sql } from "drizzle-orm";
import { afterEach, expect, it } from "vitest";
import { temporaryAttachmentStore } from "../testing/test-attachments";
import { type Defer, jobLines, type RunningProcess, scratchDatabase, startCron, waitFor } from "./processes";

/**
 * A time zone PostgreSQL knows whose local time is 23:00–23:55 now, as early in that hour as
 * there is one: the fund job is due from 23:00 local, so a `pnpm cron` loop finds the account due
 * at once, and the test ends before that zone's midnight.
 */
async function zoneAtElevenPm(database: DatabaseHandle): Promise<string | undefined> {
  const now = new Date();
  const candidates = Intl.supportedValuesOf("timeZone")
    .map((zone) => {
      const [hour, minute] = new Intl.DateTimeFormat("en-GB", {
        timeZone: zone,
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
      })
        .format(now)
        .split(":")
        .map(Number);
      return { zone, hour, minute: minute ?? 60 };
    })
    .filter((c) => c.hour === 23 && c.minute <= 55)
    .sort((x, y) => x.minute - y.minute);
  const known = new Set(
    rowsOf<{ name: string }>(await database.db.execute(sql`select name from pg_timezone_names`)).map(
      (r) => r.name,
    ),
  );
  return candidates.find((c) => known.has(c.zone))?.zone;
}

/**
 * In the last minutes of a UTC hour every whole-hour zone is past 23:55 and a half-hour zone is at
 * 23:xx only at some hours: then wait for the next hour, when a whole-hour zone turns 23:00.
 */
async function zoneAtElevenPmSoon(database: DatabaseHandle): Promise<string> {
  const zone = await zoneAtElevenPm(database);
  if (zone) return zone;
  const now = Date.now();
  const nextHour = Math.ceil(now / 3_600_000) * 3_600_000;
  await new Promise((resolve) => setTimeout(resolve, nextHour - now + 1_000));
  const later = await zoneAtElevenPm(database);
  if (!later) throw new Error(`no time zone at 23:00–23:55 at ${new Date().toISOString()}`);
  return later;
}

const fundLines = (run: RunningProcess) =>
  jobLines(run.output()).filter((line) => line.job === "fund" && "account_id" in line);

/** (b) Two cron processes at once fund each due event exactly once. */
export function fundingRunsOnce() {
  const undo: (() => Promise<unknown>)[] = [];
  const defer: Defer = (step) => undo.push(step);
  afterEach(async () => {
    for (const step of undo.splice(0).reverse()) await step();
  }, 120_000);

  it("funds each due event once with two `cron run fund` and then two `pnpm cron` loops at once", async () => {
    const url = await scratchDatabase(defer);
    const database = await createDatabase({ url, maxConnections: 2 });
    defer(() => database.close());
    await database.migrate();
    const { db } = database;

    const zone = await zoneAtElevenPmSoon(database);
    const today = localDate(new Date(), zone);
    const owner = (await anOwner(db, { email: "scale-out@example.com", timezone: zone })).actor;
    const account = await anAccount(db, owner, { balance: "1000.00", autoFunding: true });
    const goal = (name: string, amount: string, firstDay: number) =>
      createBudget(asUser(db, owner), {
        name,
        bank_account: account.id,
        budget_type: "G",
        funding_type: "F",
        target_balance: "1000.00",
        funding_amount: amount,
        funding_schedule: `DTSTART:${addDays(today, firstDay).replaceAll("-", "")}\nRRULE:FREQ=DAILY`,
      });
    // Daily events from three and two days ago: 4 of 10.00 and 3 of 25.00 are due today.
    const tens = await goal("Tens", "10.00", -3);
    const quarters = await goal("Quarters", "25.00", -2);
    // As if both were made three days ago: the engine funds no event dated before a budget existed.
    await db
      .update(budgets)
      .set({ schedulesFrom: addDays(today, -3) })
      .where(inArray(budgets.id, [tens.id, quarters.id]));
    // On PostgreSQL `pnpm cron` needs the key it seals queued emails with (decision 0049).
    const env = { DATABASE_URL: url, SECRETS_KEY: TEST_SECRETS_KEYS.key };

    // `cron run fund` reads no claims: two at once meet in the engine (account lock, one
    // occurrence per event). Up to yesterday: 3 + 2 events.
    const yesterday = addDays(today, -1);
    const manual = [
      startCron(["run", "fund", "--as-of", yesterday], env, defer),
      startCron(["run", "fund", "--as-of", yesterday], env, defer),
    ];
    expect(await Promise.all(manual.map((run) => run.exited))).toEqual([0, 0]);
    const manualLines = manual.flatMap(fundLines);
    expect(manualLines).toHaveLength(2);
    expect(manualLines.every((line) => line.status === "done")).toBe(true);
    expect(manualLines.map((line) => line.transfers).sort()).toEqual([0, 5]);

    // Two scheduler loops: each finds the account due (23:xx local) and claims it; one wins, and
    // today's 2 events are funded by it alone.
    const loops = [startCron([], env, defer), startCron([], env, defer)];
    const started = await waitFor(
      () =>
        loops.some((loop) => fundLines(loop).length > 0) &&
        loops.every(
          (loop) =>
            jobLines(loop.output()).length >=
            jobsFor(
              { changesRetentionDays: 90 },
              { attachments: temporaryAttachmentStore().store, vault: () => testVault },
            ).length,
        ),
      150_000,
    );
    expect(started, loops.map((loop) => loop.output()).join("\n---\n")).toBe(true);
    // SIGTERM waits for a pass under way: after it, both loops are done with today.
    expect(await Promise.all(loops.map((loop) => loop.stop()))).toEqual([0, 0]);
    const loopLines = loops.flatMap(fundLines);
    expect(loopLines).toEqual([expect.objectContaining({ local_date: today, status: "done", transfers: 2 })]);
    const claims = await db.select().from(scheduledRuns).where(eq(scheduledRuns.job, "fund"));
    expect(claims).toEqual([expect.objectContaining({ bankAccountId: account.id, runDate: today })]);

    // One transfer and one complete occurrence per event; the balances and the ledger agree.
    const transfers = await db
      .select({ to: internalTransactions.dstBudgetId, amount: internalTransactions.amount })
      .from(internalTransactions)
      .where(eq(internalTransactions.bankAccountId, account.id));
    expect(transfers.filter((t) => t.to === tens.id).map((t) => t.amount)).toEqual(Array(4).fill("10.00"));
    expect(transfers.filter((t) => t.to === quarters.id).map((t) => t.amount)).toEqual(
      Array(3).fill("25.00"),
    );
    expect(transfers).toHaveLength(7);
    const events = await db
      .select({
        budget: fundingOccurrences.budgetId,
        date: fundingOccurrences.scheduledDate,
        status: fundingOccurrences.status,
      })
      .from(fundingOccurrences)
      .where(eq(fundingOccurrences.bankAccountId, account.id))
      .orderBy(asc(fundingOccurrences.budgetId), asc(fundingOccurrences.scheduledDate));
    const complete = (budget: string, from: number) =>
      Array.from({ length: 1 - from }, (_, i) => ({
        budget,
        date: addDays(today, from + i),
        status: "COMPLETE",
      }));
    expect(events).toEqual(expect.arrayContaining([...complete(tens.id, -3), ...complete(quarters.id, -2)]));
    expect(events).toHaveLength(7);
    const balances = await db
      .select({ name: budgets.name, balance: budgets.balance })
      .from(budgets)
      .where(eq(budgets.bankAccountId, account.id));
    expect(Object.fromEntries(balances.map((b) => [b.name, b.balance]))).toEqual({
      Unallocated: "885.00",
      Tens: "40.00",
      Quarters: "75.00",
    });
    expect(await verifyLedger(db, account.id)).toEqual([]);
  }, 600_000);
}
