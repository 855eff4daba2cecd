import { createDatabase, type DatabaseHandle } from "@allot/db/create-database";
import { rowsOf } from "@allot/db/rows-of";
import { bankAccountOwners } from "@allot/db/schema/bank-accounts";
import { type AccountJobName, scheduledRuns } from "@allot/db/schema/scheduled-runs";
import { databaseUrl, openTestDatabase, testEngines } from "@allot/db/testing/test-databases";
import type { FundingRunResult } from "@allot/domain/funding/run-funding";
import { anAccount, anOwner } from "@allot/domain/testing/fixtures";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AccountJob } from "./account-jobs";
import { findAutoFundingAccounts } from "./auto-funding-accounts";
import { runJobNow } from "./run-now";
import { createScheduler } from "./scheduler";

const MINUTE_MS = 60_000;
const at = (iso: string, plusMs = 0) => new Date(Date.parse(iso) + plusMs);

// 10:30 UTC on 15 January 2031: 23:30 in Auckland (UTC+13), 02:30 in Los Angeles (UTC-8).
const AUCKLAND_2330 = "2031-01-15T10:30:00Z";
// An hour later: 00:30 on the 16th in Auckland, 03:30 in Los Angeles.
const LOS_ANGELES_0330 = "2031-01-15T11:30:00Z";

const RESULT: FundingRunResult = {
  transfers: 2,
  occurrences_completed: 1,
  occurrences_partial: 1,
  warnings: ["short by 5.00"],
  skipped_budgets: [],
};

/** A stand-in for the engine: records each call, optionally waits or fails. */
function fakeJob(
  name: AccountJobName,
  hour: number,
  behave: { delayMs?: number; failFor?: Set<string> } = {},
) {
  const calls: Array<{ accountId: string; asOf: string }> = [];
  const job: AccountJob = {
    name,
    hour,
    run: async (_db, accountId, asOf) => {
      calls.push({ accountId, asOf });
      if (behave.delayMs) await new Promise((resolve) => setTimeout(resolve, behave.delayMs));
      if (behave.failFor?.has(accountId)) throw new Error(`engine failed on ${accountId}`);
      return RESULT;
    },
  };
  return { job, calls };
}

describe.each(testEngines())("account jobs at local hours (%s)", (engine) => {
  let database: DatabaseHandle;
  const ids = { auckland: "", losAngeles: "", shared: "", badZone: "", disabled: "" };
  const nameOf = (id: string) => Object.entries(ids).find(([, value]) => value === id)?.[0] ?? id;
  const named = (accounts: Array<{ accountId: string; localDate: string }>) =>
    Object.fromEntries(accounts.map((a) => [nameOf(a.accountId), a.localDate]));
  const claimsFor = async (job: AccountJobName) =>
    (await database.db.select().from(scheduledRuns).where(eq(scheduledRuns.job, job)))
      .map((row) => `${nameOf(row.bankAccountId)} ${row.runDate}`)
      .sort();

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    const { db } = database;
    const kiwi = (await anOwner(db, { email: "kiwi@example.com", timezone: "Pacific/Auckland" })).actor;
    const angeleno = (await anOwner(db, { email: "angeleno@example.com", timezone: "America/Los_Angeles" }))
      .actor;
    const martian = (await anOwner(db, { email: "martian@example.com", timezone: "Mars/Olympus_Mons" }))
      .actor;
    ids.auckland = (await anAccount(db, kiwi, { name: "Auckland", autoFunding: true })).id;
    ids.losAngeles = (await anAccount(db, angeleno, { name: "Los Angeles", autoFunding: true })).id;
    ids.badZone = (await anAccount(db, martian, { name: "Bad zone", autoFunding: true })).id;
    ids.disabled = (await anAccount(db, kiwi, { name: "Disabled", autoFunding: false })).id;
    // Owned by the angeleno first, the kiwi joined later: the account keeps Los Angeles time.
    ids.shared = (await anAccount(db, angeleno, { name: "Shared", autoFunding: true })).id;
    await db.insert(bankAccountOwners).values({
      bankAccountId: ids.shared,
      userId: kiwi.userId,
      createdAt: new Date(Date.now() + MINUTE_MS),
    });
  });
  afterAll(async () => {
    await database?.close();
  });
  // Each test starts with no claims: the jobs' names are the real ones (a CHECK holds them).
  beforeEach(async () => {
    await database.db.delete(scheduledRuns);
  });

  it("finds due accounts by their first owner's local time, UTC for an unknown zone", async () => {
    const { db } = database;
    expect(named(await findAutoFundingAccounts(db, at(AUCKLAND_2330), { fromHour: 23 }))).toEqual({
      auckland: "2031-01-15",
    });
    // 10:30 UTC counts for the account whose owner's zone PostgreSQL does not know.
    expect(named(await findAutoFundingAccounts(db, at(AUCKLAND_2330), { fromHour: 3 }))).toEqual({
      auckland: "2031-01-15",
      badZone: "2031-01-15",
    });
    expect(named(await findAutoFundingAccounts(db, at(LOS_ANGELES_0330), { fromHour: 3 }))).toEqual({
      losAngeles: "2031-01-15",
      shared: "2031-01-15",
      badZone: "2031-01-15",
    });
    // No hour: every auto-funding account, each with its own local date.
    expect(named(await findAutoFundingAccounts(db, at(LOS_ANGELES_0330)))).toEqual({
      auckland: "2031-01-16",
      losAngeles: "2031-01-15",
      shared: "2031-01-15",
      badZone: "2031-01-15",
    });
  });

  it("runs an account once per local date, across ticks and restarted processes", async () => {
    const { job, calls } = fakeJob("fund", 23);
    const first = createScheduler(database, { accountJobs: [job] });
    const runs = await first.runDue(at(AUCKLAND_2330));
    expect(runs).toEqual([
      {
        job: "fund",
        account_id: ids.auckland,
        local_date: "2031-01-15",
        status: "done",
        transfers: 2,
        occurrences_completed: 1,
        occurrences_partial: 1,
        warnings: 1,
        skipped_budgets: 0,
        duration_ms: expect.any(Number),
      },
    ]);
    expect(await first.runDue(at(AUCKLAND_2330, 20 * MINUTE_MS))).toEqual([]);
    // Another process starting at 23:55 finds the claim in the database, not in its memory.
    expect(
      await createScheduler(database, { accountJobs: [job] }).runDue(at(AUCKLAND_2330, 25 * MINUTE_MS)),
    ).toEqual([]);
    // 22:59 the next day is too early; 23:00 runs the next local date.
    expect(await first.runDue(at("2031-01-16T09:59:00Z"))).toEqual([]);
    expect(
      (await first.runDue(at("2031-01-16T10:00:00Z"))).map((run) => "local_date" in run && run.local_date),
    ).toEqual(["2031-01-16"]);
    expect(calls).toEqual([
      { accountId: ids.auckland, asOf: "2031-01-15" },
      { accountId: ids.auckland, asOf: "2031-01-16" },
    ]);
    expect(await claimsFor("fund")).toEqual(["auckland 2031-01-15", "auckland 2031-01-16"]);
  });

  it("still runs an account when the process starts hours after the job's hour", async () => {
    const { job, calls } = fakeJob("recur", 3);
    // 22:00 in Los Angeles: the 03:00 run was missed, it happens now, for that local date.
    await createScheduler(database, { accountJobs: [job] }).runDue(at("2031-02-01T06:00:00Z"));
    expect(calls.filter((call) => call.accountId === ids.losAngeles)).toEqual([
      { accountId: ids.losAngeles, asOf: "2031-01-31" },
    ]);
  });

  it("runs each account once when two schedulers tick at the same moment", async () => {
    // On PostgreSQL the second scheduler has a connection pool of its own, as another machine would.
    let other = database;
    if (engine === "postgres") {
      const rows = rowsOf<{ name: string }>(
        await database.db.execute(sql`select current_database() as name`),
      );
      other = await createDatabase({
        url: databaseUrl(process.env.DATABASE_URL as string, rows[0]?.name ?? ""),
        maxConnections: 4,
      });
    }
    try {
      const { job, calls } = fakeJob("recur", 3, { delayMs: 30 });
      const now = at("2031-03-01T20:00:00Z");
      const [a, b] = await Promise.all([
        createScheduler(database, { accountJobs: [job] }).runDue(now),
        createScheduler(other, { accountJobs: [job] }).runDue(now),
      ]);
      expect(a.length + b.length).toBe(4);
      expect(calls.map((call) => nameOf(call.accountId)).sort()).toEqual([
        "auckland",
        "badZone",
        "losAngeles",
        "shared",
      ]);
    } finally {
      if (other !== database) await other.close();
    }
  });

  it("logs a failed account, runs the others, and retries it later that day", async () => {
    const failFor = new Set([ids.losAngeles]);
    const { job, calls } = fakeJob("recur", 3, { failFor });
    const scheduler = createScheduler(database, { accountJobs: [job] });
    const now = at(LOS_ANGELES_0330);
    const runs = await scheduler.runDue(now);
    expect(runs.map((run) => [nameOf("account_id" in run ? run.account_id : ""), run.status]).sort()).toEqual(
      [
        ["badZone", "done"],
        ["losAngeles", "failed"],
        ["shared", "done"],
      ],
    );
    expect(runs.find((run) => run.status === "failed")).toEqual({
      job: "recur",
      account_id: ids.losAngeles,
      local_date: "2031-01-15",
      status: "failed",
      error: `engine failed on ${ids.losAngeles}`,
      duration_ms: expect.any(Number),
    });
    // The failed account's claim is given back; this process waits a while before retrying.
    expect(await claimsFor("recur")).toEqual(["badZone 2031-01-15", "shared 2031-01-15"]);
    expect(await scheduler.runDue(at(LOS_ANGELES_0330, MINUTE_MS))).toEqual([]);
    failFor.clear();
    const retried = await scheduler.runDue(at(LOS_ANGELES_0330, 16 * MINUTE_MS));
    expect(retried.map((run) => [nameOf("account_id" in run ? run.account_id : ""), run.status])).toEqual([
      ["losAngeles", "done"],
    ]);
    expect(calls.filter((call) => call.accountId === ids.losAngeles)).toHaveLength(2);
    expect(await claimsFor("recur")).toEqual([
      "badZone 2031-01-15",
      "losAngeles 2031-01-15",
      "shared 2031-01-15",
    ]);
  });

  it("a manual run takes every auto-funding account whatever its hour, without claims", async () => {
    const { job, calls } = fakeJob("fund", 23);
    const now = at(LOS_ANGELES_0330);
    const runs = await runJobNow(database, job, { now });
    expect(calls.map((call) => `${nameOf(call.accountId)} ${call.asOf}`).sort()).toEqual([
      "auckland 2031-01-16",
      "badZone 2031-01-15",
      "losAngeles 2031-01-15",
      "shared 2031-01-15",
    ]);
    expect(runs.at(-1)).toEqual({ job: "fund", status: "done", result: { accounts: 4, failed: 0 } });
    const asOf = await runJobNow(database, job, { now, asOf: "2031-06-30" });
    expect(
      asOf.filter((run) => "local_date" in run).map((run) => "local_date" in run && run.local_date),
    ).toEqual(Array(4).fill("2031-06-30"));
    expect(await claimsFor("fund")).toEqual([]);
  });

  it("one failed account makes the manual run's summary fail", async () => {
    const { job } = fakeJob("fund", 23, { failFor: new Set([ids.badZone]) });
    const runs = await runJobNow(database, job, { now: at(LOS_ANGELES_0330) });
    expect(runs.filter((run) => run.status === "done")).toHaveLength(3);
    expect(runs.at(-1)).toEqual({ job: "fund", status: "failed", result: { accounts: 4, failed: 1 } });
  });
});
