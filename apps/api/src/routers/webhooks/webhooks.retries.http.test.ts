import { webhookRoutes } from "@allot/contract/webhooks/routes";
import type { WebhookDelivery } from "@allot/contract/webhooks/webhook";
import { webhooks } from "@allot/db/schema/webhooks";
import { testEngines } from "@allot/db/testing/test-databases";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { aBudget, anAccount } from "../../../test/testing/fixtures";
import { type TestUser, useTestApp } from "../../../test/testing/test-app";
import { useTestMailbox } from "../../../test/testing/test-mailbox";
import { useWebhookReceiver } from "../../../test/testing/webhook-receiver";
import { webhooksKit } from "../../../test/testing/webhooks-test-kit";

const DAY_MS = 86_400_000;

describe.each(testEngines())("webhooks over HTTP: failures and retries (%s)", (engine) => {
  const t = useTestApp(engine);
  const receiver = useWebhookReceiver();
  const mailbox = useTestMailbox(() => t.db);
  const kit = webhooksKit(t);
  // A short timeout keeps the hanging receiver's attempt quick (the real one is 10 s); only that
  // attempt uses it, since on a loaded machine an answering receiver can take longer than 0.3 s.
  const impatient = webhooksKit(t, { timeoutMs: 300 });

  let made = 0;
  /** A change on the account: one budget.created event. */
  const aChange = (owner: TestUser, accountId: string) => {
    made += 1;
    return aBudget(t, owner, { id: accountId }, { name: `Goal ${made}` });
  };

  /** An owner, an account and a webhook on `path`, answered as `status` says. */
  async function failingSetup(path: string) {
    const owner = await t.user();
    const account = await anAccount(t, owner);
    const hook = await kit.webhook(owner, { url: `${receiver.url}${path}`, bank_account: account.id });
    return { owner, account, hook };
  }

  const deliveriesOf = async (owner: TestUser, hookId: string): Promise<WebhookDelivery[]> =>
    (await t.as(owner).call(webhookRoutes.listDeliveries, { id: hookId, page_size: 100 })).json().results;

  it("retries a 500 after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then marks it failed", async () => {
    const { owner, account, hook } = await failingSetup("/always-500");
    receiver.answerWith((request) =>
      request.path === "/always-500" ? { status: 500, body: "boom" } : { status: 200 },
    );
    await aChange(owner, account.id);

    const waits: number[] = [];
    let at = new Date();
    for (let attempt = 1; attempt <= 8; attempt += 1) {
      expect(await kit.deliver(at)).toEqual({ succeeded: 0, failed: 1 });
      const [delivery] = await deliveriesOf(owner, hook.id);
      expect(delivery).toMatchObject({
        attempts: attempt,
        response_status: 500,
        last_error: "HTTP 500: boom",
      });
      if (attempt === 8) {
        expect(delivery).toMatchObject({ status: "failed", next_attempt_at: null });
        break;
      }
      expect(delivery?.status).toBe("pending");
      const next = new Date(String(delivery?.next_attempt_at));
      waits.push(next.getTime() - new Date(String(delivery?.last_attempt_at)).getTime());
      // Not due a moment before: nothing is sent.
      expect(await kit.deliver(new Date(next.getTime() - 1_000))).toEqual({ succeeded: 0, failed: 0 });
      at = next;
    }
    expect(waits).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(receiver.received("/always-500")).toHaveLength(8);
    // Every attempt carries the same webhook-id, so a receiver can tell a retry from a new event.
    expect(new Set(receiver.received("/always-500").map((r) => r.headers["webhook-id"])).size).toBe(1);
  });

  it("treats an answer that takes too long as a failure, and succeeds on a later attempt", async () => {
    const { owner, account, hook } = await failingSetup("/slow");
    let calls = 0;
    receiver.answerWith((request) => {
      if (request.path !== "/slow") return { status: 200 };
      calls += 1;
      return calls === 1 ? "hang" : { status: 204 };
    });
    await aChange(owner, account.id);
    expect(await impatient.deliver()).toEqual({ succeeded: 0, failed: 1 });
    const [late] = await deliveriesOf(owner, hook.id);
    expect(late).toMatchObject({
      status: "pending",
      attempts: 1,
      response_status: null,
      last_error: "No answer within 0.3 seconds.",
    });
    expect(late?.response_time_ms).toBeGreaterThanOrEqual(300);
    const failing = await t.db.select().from(webhooks).where(eq(webhooks.id, hook.id));
    expect(failing[0]?.failingSince).not.toBeNull();

    expect(await kit.deliver(new Date(Date.now() + 5_000))).toEqual({ succeeded: 1, failed: 0 });
    const [done] = await deliveriesOf(owner, hook.id);
    expect(done).toMatchObject({
      status: "succeeded",
      attempts: 2,
      response_status: 204,
      last_error: null,
      next_attempt_at: null,
    });
    // A success forgets the failures before it.
    const healed = await t.db.select().from(webhooks).where(eq(webhooks.id, hook.id));
    expect(healed[0]?.failingSince).toBeNull();
    receiver.releaseHanging();
  });

  it("disables the webhook on a 410, failing what it still had pending", async () => {
    const { owner, account, hook } = await failingSetup("/gone");
    receiver.answerWith((request) =>
      request.path === "/gone" ? { status: 410, body: "unsubscribed" } : { status: 200 },
    );
    await aChange(owner, account.id);
    await aChange(owner, account.id);
    // One attempt: the sender makes the first, the 410 disables the webhook before the second is claimed.
    const sent = await kit.deliver();
    expect(sent.failed).toBeGreaterThanOrEqual(1);
    expect((await t.as(owner).call(webhookRoutes.get, { id: hook.id })).json()).toMatchObject({
      enabled: false,
      disabled_reason: "gone",
    });
    const deliveries = await deliveriesOf(owner, hook.id);
    expect(deliveries.map((d) => d.status)).toEqual(["failed", "failed"]);
    expect(
      deliveries.some((d) => d.response_status === 410 && d.last_error === "HTTP 410: unsubscribed"),
    ).toBe(true);
    // Nothing more goes out, retried or new.
    const before = receiver.received("/gone").length;
    await aChange(owner, account.id);
    await kit.deliver(new Date(Date.now() + DAY_MS));
    expect(receiver.received("/gone")).toHaveLength(before);
    expect(await deliveriesOf(owner, hook.id)).toHaveLength(2);
  });

  it("disables a webhook that failed everything for five days, and emails its owner", async () => {
    const { owner, account, hook } = await failingSetup("/down");
    receiver.answerWith((request) => (request.path === "/down" ? { status: 503 } : { status: 200 }));
    await aChange(owner, account.id);
    const start = new Date();
    await kit.deliver(start);
    // Four days on, still failing: still enabled.
    await aChange(owner, account.id);
    await kit.deliver(new Date(start.getTime() + 4 * DAY_MS));
    expect((await t.as(owner).call(webhookRoutes.get, { id: hook.id })).json().enabled).toBe(true);
    const disabledEmails = async () =>
      (await mailbox.messagesTo(owner.email)).filter((message) => message.kind === "webhook_disabled");
    expect(await disabledEmails()).toEqual([]);

    await aChange(owner, account.id);
    await kit.deliver(new Date(start.getTime() + 5 * DAY_MS + 60_000));
    expect((await t.as(owner).call(webhookRoutes.get, { id: hook.id })).json()).toMatchObject({
      enabled: false,
      disabled_reason: "failing",
    });
    expect((await deliveriesOf(owner, hook.id)).every((d) => d.status === "failed")).toBe(true);
    expect(await disabledEmails()).toHaveLength(1);
    const email = await mailbox.latestTo(owner.email);
    expect(email.subject).toBe("Allot stopped sending to one of your webhooks");
    expect(email.text).toContain(`${receiver.url}/down`);
    expect(email.text).toContain("HTTP 503");
  });
});
