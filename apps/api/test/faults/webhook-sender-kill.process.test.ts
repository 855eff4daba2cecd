import { testEngines } from "@allot/db/testing/test-databases";
import { DELIVERY_CLAIM_MS } from "@allot/domain/webhooks/deliver-webhooks";
import { httpWebhookPoster } from "@allot/webhook-poster/http-webhook-poster";
import { afterAll, describe, expect, it } from "vitest";
import { useWebhookReceiver } from "../testing/webhook-receiver";
import { seedAccount, seedOwner } from "./fault-seed";
import { useFaultRun } from "./use-fault-run";
import {
  deliverAt,
  deliveriesOf,
  LOOPBACK_POLICY,
  queueEvents,
  receiptsById,
  seedWebhook,
} from "./webhook-outbox";

/*
 * SIGKILL of a sending process (the real API server, whose delivery loop starts with it) while the
 * receiver holds its requests. 60 events are queued before it starts; the receiver answers the
 * first 5 requests and holds every later one, so all of the sender's parallel attempts end up
 * hanging: at the kill some deliveries are done, some in flight, some claimed and not yet sent,
 * some not claimed at all. Then the test is the next sender (on PGlite no other process may open
 * the data folder while the server lives): a pass before the dead process's claims run out sends
 * only what it had not claimed; a pass after them sends the rest, the held ones again with the same
 * webhook-id. Nothing is lost, and each delivery's attempts are the requests the receiver got for it.
 */

const EVENTS = 60;
const ANSWERED = 5;
// The sender's attempts in flight at once (deliver-webhooks.ts PARALLEL): all of them end up held.
const HELD = 10;

describe.each(testEngines())("SIGKILL of a webhook sender mid-delivery (%s)", (engine) => {
  const run = useFaultRun(engine);
  const receiver = useWebhookReceiver();
  const poster = httpWebhookPoster(LOOPBACK_POLICY);
  afterAll(() => poster.close());

  it("loses no delivery: the held ones are sent again, same webhook-id, each attempt counted once", async () => {
    const store = await run.store();
    let handle = await store.open();
    const owner = await seedOwner(handle.db);
    const account = await seedAccount(handle.db, owner, "Checking");
    const hook = await seedWebhook(handle.db, owner.actor, account.id, `${receiver.url}/hooks`);
    await queueEvents(handle.db, owner.actor, account.id, EVENTS);
    expect(await deliveriesOf(handle.db, hook.id)).toHaveLength(EVENTS);
    await handle.close();

    const held = new Set<string>();
    receiver.answerWith((request) => {
      if (receiver.received().length <= ANSWERED) return { status: 200 };
      held.add(String(request.headers["webhook-id"]));
      return "hang";
    });
    const api = await run.start({
      ...store,
      env: { ...store.env, WEBHOOK_ALLOW_HTTP: "true", WEBHOOK_ALLOW_PRIVATE: "true" },
    });
    // Within the poster's 10 s timeout of the first held request: every attempt is still open.
    await receiver.waitFor(ANSWERED + HELD, 60_000);
    await api.kill();
    expect(receiver.received()).toHaveLength(ANSWERED + HELD);
    expect(held.size).toBe(HELD);
    receiver.answerWith(() => ({ status: 200 }));

    handle = await store.open();
    run.defer(() => handle.close());
    const atKill = await deliveriesOf(handle.db, hook.id);
    expect(atKill.filter((d) => d.status === "succeeded")).toHaveLength(ANSWERED);
    const claimed = atKill.filter((d) => d.status === "pending" && d.claimedUntil !== null);
    const unclaimed = atKill.filter((d) => d.status === "pending" && d.claimedUntil === null);
    expect(claimed.map((d) => d.eventId)).toEqual(expect.arrayContaining([...held]));
    expect(claimed.length + unclaimed.length).toBe(EVENTS - ANSWERED);

    // Before the dead process's claims run out, a new sender leaves them alone.
    expect(await deliverAt(handle.db, poster, new Date())).toEqual({
      succeeded: unclaimed.length,
      failed: 0,
    });
    const early = receiver.received().slice(ANSWERED + HELD);
    expect(early.map((r) => r.headers["webhook-id"]).sort()).toEqual(unclaimed.map((d) => d.eventId).sort());

    // Once they have run out, it makes the interrupted attempts again.
    const later = new Date(Date.now() + DELIVERY_CLAIM_MS + 1_000);
    expect(await deliverAt(handle.db, poster, later)).toEqual({ succeeded: claimed.length, failed: 0 });
    expect(await deliverAt(handle.db, poster, new Date(later.getTime() + 86_400_000))).toEqual({
      succeeded: 0,
      failed: 0,
    });

    const receipts = receiptsById(receiver.received());
    const final = await deliveriesOf(handle.db, hook.id);
    expect(final).toHaveLength(EVENTS);
    for (const delivery of final) {
      const expected = held.has(delivery.eventId) ? 2 : 1;
      expect(delivery, `delivery of event ${delivery.eventId}`).toMatchObject({
        status: "succeeded",
        attempts: expected,
        claimedUntil: null,
      });
      expect(receipts.get(delivery.eventId), `receipts of event ${delivery.eventId}`).toBe(expected);
    }
    expect(receipts.size).toBe(EVENTS);
  }, 120_000);
});
