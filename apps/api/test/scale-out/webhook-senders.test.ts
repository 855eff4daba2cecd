import { randomBytes } from "node:crypto";
import { createDatabase, type DatabaseHandle } from "@allot/db/create-database";
import { describeOnPostgres } from "@allot/db/testing/server-suites";
import { anAccount, anOwner, type Owner } from "@allot/domain/testing/fixtures";
import { TEST_SECRETS_KEYS, testVault } from "@allot/domain/testing/test-vault";
import { jobsFor } from "@allot/scheduler/jobs";
import { httpWebhookPoster } from "@allot/webhook-poster/http-webhook-poster";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import {
  deliverAt,
  deliveriesOf,
  LOOPBACK_POLICY,
  queueEvents,
  receiptsById,
  seedWebhook,
} from "../faults/webhook-outbox";
import { temporaryAttachmentStore } from "../testing/test-attachments";
import { useWebhookReceiver } from "../testing/webhook-receiver";
import { type Defer, jobLines, scratchDatabase, startApi, startCron, waitFor } from "./processes";

/*
 * Several senders share the webhook outbox through PostgreSQL (extensions.md §4: each delivery
 * attempt is made by one of them). 200 deliveries come due at one commit while two senders run:
 * two passes on connection pools of their own, then a real API process beside a `pnpm cron` loop.
 * The receiver answers each request after 50 ms, so one sender alone (10 attempts at once) would
 * need a second or more, longer than the 500 ms between polls: both take part. Every webhook-id
 * arrives exactly once, and every delivery succeeded at its first attempt. On the embedded
 * database only the server delivers: these run with DATABASE_URL (as postgres-restart does).
 */

const DELIVERIES = 200;

describeOnPostgres("two webhook senders on one PostgreSQL", () => {
  const receiver = useWebhookReceiver();
  const poster = httpWebhookPoster(LOOPBACK_POLICY);
  // What a test started (undone after it), and the shared database (after them all).
  const undo: (() => Promise<unknown>)[] = [];
  const defer: Defer = (step) => undo.push(step);
  const undoAtEnd: (() => Promise<unknown>)[] = [];
  const deferToEnd: Defer = (step) => undoAtEnd.push(step);
  let url: string;
  let database: DatabaseHandle;
  let owner: Owner;

  beforeAll(async () => {
    url = await scratchDatabase(deferToEnd);
    database = await createDatabase({ url, maxConnections: 4 });
    deferToEnd(() => database.close());
    await database.migrate();
    owner = await anOwner(database.db);
    receiver.answerWith(() => ({ status: 200, delayMs: 50 }));
  }, 120_000);
  afterEach(async () => {
    for (const step of undo.splice(0).reverse()) await step();
  }, 60_000);
  afterAll(async () => {
    for (const step of undoAtEnd.splice(0).reverse()) await step();
    await poster.close();
  }, 60_000);

  /** 200 deliveries to a webhook of its own, queued at one commit: the webhook's id. */
  async function queueDeliveries(path: string) {
    const account = await anAccount(database.db, owner.actor, { name: path });
    const hook = await seedWebhook(database.db, owner.actor, account.id, `${receiver.url}/${path}`);
    await queueEvents(database.db, owner.actor, account.id, DELIVERIES);
    return hook.id;
  }

  /** Each delivery succeeded at its first attempt, its event's id received exactly once. */
  async function expectEachSentOnce(webhookId: string, path: string) {
    const deliveries = await deliveriesOf(database.db, webhookId);
    expect(deliveries).toHaveLength(DELIVERIES);
    expect(deliveries.filter((d) => d.status !== "succeeded" || d.attempts !== 1)).toEqual([]);
    const receipts = receiptsById(receiver.received(`/${path}`));
    expect([...receipts.values()].filter((n) => n !== 1)).toEqual([]);
    expect([...receipts.keys()].sort()).toEqual(deliveries.map((d) => d.eventId).sort());
  }

  it("makes each attempt once with two passes on pools of their own", async () => {
    const webhookId = await queueDeliveries("pools");
    const pools = await Promise.all([1, 2].map(() => createDatabase({ url, maxConnections: 10 })));
    for (const pool of pools) defer(() => pool.close());

    const now = new Date();
    const reports = await Promise.all(pools.map((pool) => deliverAt(pool.db, poster, now)));
    // Both took part, and between them sent each delivery once.
    expect(reports.map((r) => r.failed)).toEqual([0, 0]);
    expect(reports.every((r) => r.succeeded > 0)).toBe(true);
    expect(reports.reduce((sum, r) => sum + r.succeeded, 0)).toBe(DELIVERIES);
    await expectEachSentOnce(webhookId, "pools");
  });

  it("makes each attempt once with an API process and a `pnpm cron` loop running", async () => {
    const env = {
      DATABASE_URL: url,
      JWT_SECRET: randomBytes(32).toString("hex"),
      // The key the seeded webhook's secret was sealed with: both processes sign with it.
      SECRETS_KEY: TEST_SECRETS_KEYS.key,
      SCHEDULER: "off",
      WEBHOOK_ALLOW_HTTP: "true",
      WEBHOOK_ALLOW_PRIVATE: "true",
    };
    const [api, cron] = await Promise.all([
      startApi(env, defer),
      (async () => {
        const loop = startCron([], env, defer);
        // Its first pass has run every job: its delivery loop, started beside them, is polling.
        const started = await waitFor(
          () =>
            jobLines(loop.output()).length >=
            jobsFor(
              { changesRetentionDays: 90 },
              { attachments: temporaryAttachmentStore().store, vault: () => testVault },
            ).length,
          150_000,
        );
        if (!started) throw new Error(`the cron loop never ran:\n${loop.output()}`);
        return loop;
      })(),
    ]);

    const webhookId = await queueDeliveries("processes");
    const allSent = async () =>
      (await deliveriesOf(database.db, webhookId)).every((d) => d.status !== "pending");
    const deadline = Date.now() + 30_000;
    while (!(await allSent()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    // SIGTERM waits for a pass under way: after it, nothing more can arrive.
    expect(await Promise.all([api.stop(), cron.stop()])).toEqual([0, 0]);
    await expectEachSentOnce(webhookId, "processes");
  }, 240_000);
});
