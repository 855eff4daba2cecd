import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { localAttachmentStore } from "@allot/attachments/local-attachment-store";
import type { DatabaseHandle } from "@allot/db/create-database";
import { openTestDatabase, testEngines } from "@allot/db/testing/test-databases";
import { testVault } from "@allot/domain/testing/test-vault";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Job, jobsFor } from "./jobs";

const jobs = jobsFor(
  { changesRetentionDays: 90 },
  {
    attachments: localAttachmentStore(mkdtempSync(join(tmpdir(), "allot-scheduler-"))),
    vault: () => testVault,
  },
);

import { createScheduler } from "./scheduler";

const HOUR_MS = 3_600_000;

describe.each(testEngines())("cron scheduler (%s)", (engine) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase(engine);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("runs the real jobs at once, then each on its own interval", async () => {
    const scheduler = createScheduler(database, { jobs });
    const start = new Date();
    const first = await scheduler.runDue(start);
    expect(first).toEqual([
      { job: "cleanup-tokens", status: "done", result: { sessions: 0, refreshTokens: 0 } },
      { job: "cleanup-throttle-counters", status: "done", result: 0 },
      { job: "warn-expiring-api-keys", status: "done", result: 0 },
      { job: "deliver-digests", status: "done", result: 0 },
      { job: "expire-invitations", status: "done", result: { expired: 0 } },
      { job: "purge-activity", status: "done", result: 0 },
      { job: "purge-webhook-deliveries", status: "done", result: 0 },
      { job: "purge-idempotency-keys", status: "done", result: 0 },
      { job: "purge-change-tombstones", status: "done", result: 0 },
      { job: "remove-attachments", status: "done", result: 0 },
    ]);
    expect(await scheduler.runDue(new Date(start.getTime() + 60_000))).toEqual([]);
    const minutesLater = await scheduler.runDue(new Date(start.getTime() + 30 * 60_000));
    expect(minutesLater.map((r) => r.job)).toEqual(["deliver-digests", "remove-attachments"]);
    const hourLater = await scheduler.runDue(new Date(start.getTime() + HOUR_MS));
    expect(hourLater.map((r) => r.job)).toEqual([
      "cleanup-throttle-counters",
      "warn-expiring-api-keys",
      "deliver-digests",
      "expire-invitations",
      "purge-idempotency-keys",
      "remove-attachments",
    ]);
    const dayLater = await scheduler.runDue(new Date(start.getTime() + 24 * HOUR_MS));
    expect(dayLater.map((r) => r.job)).toEqual([
      "cleanup-tokens",
      "cleanup-throttle-counters",
      "warn-expiring-api-keys",
      "deliver-digests",
      "expire-invitations",
      "purge-activity",
      "purge-webhook-deliveries",
      "purge-idempotency-keys",
      "purge-change-tombstones",
      "remove-attachments",
    ]);
  });

  it("reports a failing job and still runs the others", async () => {
    const failing: Job = {
      name: "broken",
      everyMs: HOUR_MS,
      lockId: 4_216_901,
      run: () => Promise.reject(new Error("boom")),
    };
    const working: Job = { name: "fine", everyMs: HOUR_MS, lockId: 4_216_902, run: async () => "ok" };
    const runs = await createScheduler(database, { jobs: [failing, working] }).runDue();
    expect(runs).toEqual([
      { job: "broken", status: "failed", error: "boom" },
      { job: "fine", status: "done", result: "ok" },
    ]);
  });

  // PGlite is one process: there is no other machine to lock out, so this is PostgreSQL's alone.
  if (engine !== "postgres") return;

  it("skips a job whose advisory lock another process holds", async () => {
    let ran = 0;
    const job: Job = { name: "locked", everyMs: HOUR_MS, lockId: 4_216_903, run: async () => ++ran };
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let held = () => {};
    const isHeld = new Promise<void>((resolve) => {
      held = resolve;
    });
    // Another "machine": holds the lock on a connection of its own until released.
    const holder = database.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_lock(${job.lockId})`);
      held();
      await released;
      await tx.execute(sql`select pg_advisory_unlock(${job.lockId})`);
    });
    await isHeld;
    expect(await createScheduler(database, { jobs: [job] }).runDue()).toEqual([
      { job: "locked", status: "skipped" },
    ]);
    release();
    await holder;
    expect(await createScheduler(database, { jobs: [job] }).runDue()).toEqual([
      { job: "locked", status: "done", result: 1 },
    ]);
    expect(ran).toBe(1);
  });
});
