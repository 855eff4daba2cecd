import { budgetRoutes } from "@allot/contract/budgets/routes";
import { webhookRoutes } from "@allot/contract/webhooks/routes";
import type { Database } from "@allot/db/create-database";
import { rowsOf } from "@allot/db/rows-of";
import { testEngines } from "@allot/db/testing/test-databases";
import { createAccessTokens } from "@allot/domain/auth/access-tokens";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activityOf } from "../../../test/testing/activity";
import { anAccount } from "../../../test/testing/fixtures";
import { testConfig, useTestApp } from "../../../test/testing/test-app";
import { routeCaller } from "../../../test/testing/test-client";
import { useWebhookReceiver } from "../../../test/testing/webhook-receiver";
import { webhooksKit } from "../../../test/testing/webhooks-test-kit";
import { buildApp } from "../../app";

const queuedDeliveries = async (db: Pick<Database, "execute">) =>
  rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from webhook_deliveries`))[0]?.n ?? 0;

/**
 * `db`, except that a transaction which queued webhook deliveries fails at its end, after all its
 * work (the use case's recordEvent included), as a commit that does not go through. `queued` holds
 * how many each such transaction had queued when it rolled back.
 */
function failingAfterOutbox(db: Database) {
  const queued: number[] = [];
  const failing = new Proxy(db, {
    get(target, property, receiver) {
      if (property !== "transaction") return Reflect.get(target, property, receiver);
      return ((work, config) =>
        target.transaction(async (tx) => {
          const before = await queuedDeliveries(tx);
          const result = await work(tx);
          const written = (await queuedDeliveries(tx)) - before;
          if (written === 0) return result;
          queued.push(written);
          throw new Error("injected fault: the transaction fails after queueing its webhook deliveries");
        }, config)) as Database["transaction"];
    },
  });
  return { db: failing, queued };
}

describe.each(testEngines())("webhooks over HTTP: the outbox follows the commit (%s)", (engine) => {
  const t = useTestApp(engine);
  const receiver = useWebhookReceiver();
  const kit = webhooksKit(t);
  let fault: ReturnType<typeof failingAfterOutbox>;
  let failing: FastifyInstance;

  beforeAll(async () => {
    fault = failingAfterOutbox(t.db);
    const config = testConfig();
    failing = await buildApp({
      db: fault.db,
      tokens: createAccessTokens(config.jwtSecret),
      config,
      attachments: t.attachments.store,
    });
  });
  afterAll(async () => {
    await failing?.close();
  });

  it("sends nothing for a change whose transaction rolled back after recording its event", async () => {
    const owner = await t.user();
    const account = await anAccount(t, owner);
    const hook = await kit.webhook(owner, { url: `${receiver.url}/rolled-back`, bank_account: account.id });
    const budget = {
      name: "Holiday",
      bank_account: account.id,
      budget_type: "G",
      funding_type: "F",
      target_balance: "500",
      funding_amount: "50",
    } as const;

    const refused = await routeCaller((options) => failing.inject(options), owner).call(
      budgetRoutes.create,
      budget,
    );
    expect(refused.statusCode, refused.body).toBe(500);
    // The use case had recorded its event and queued its delivery when the transaction failed.
    expect(fault.queued).toEqual([1]);
    expect(await activityOf(t, owner, account.id, ["budget.created"])).toEqual([]);
    expect((await t.as(owner).call(webhookRoutes.listDeliveries, { id: hook.id })).json().results).toEqual(
      [],
    );
    expect(await kit.deliver()).toEqual({ succeeded: 0, failed: 0 });
    expect(await kit.deliver(new Date(Date.now() + 86_400_000))).toEqual({ succeeded: 0, failed: 0 });
    expect(receiver.received("/rolled-back")).toEqual([]);

    // The same request committed is sent, once.
    const created = await t.as(owner).call(budgetRoutes.create, budget);
    expect(created.statusCode, created.body).toBe(201);
    expect(await kit.deliver()).toEqual({ succeeded: 1, failed: 0 });
    const [event] = await activityOf(t, owner, account.id, ["budget.created"]);
    expect(receiver.received("/rolled-back").map((r) => r.headers["webhook-id"])).toEqual([event?.id]);
  });
});
