import { webhookRoutes } from "@allot/contract/webhooks/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { aBudget, anAccount } from "../../../test/testing/fixtures";
import { useTestApp } from "../../../test/testing/test-app";
import type { CallInput } from "../../../test/testing/test-client";
import { useWebhookReceiver } from "../../../test/testing/webhook-receiver";
import { webhooksKit } from "../../../test/testing/webhooks-test-kit";

const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
const DAY_MS = 86_400_000;

describe.each(testEngines())("webhooks over HTTP: managing them (%s)", (engine) => {
  const t = useTestApp(engine);
  const receiver = useWebhookReceiver();
  const kit = webhooksKit(t);

  it("creates a webhook with a one-time secret, then lists, reads, changes and deletes it", async () => {
    const owner = await t.user();
    const account = await anAccount(t, owner);
    const created = await kit.webhook(owner, {
      url: `${receiver.url}/crud`,
      event_types: ["budget.created", "transfer.created"],
      bank_account: account.id,
      description: "Budgets to the spreadsheet",
    });
    expect(created).toEqual({
      id: expect.any(String),
      url: `${receiver.url}/crud`,
      event_types: ["budget.created", "transfer.created"],
      bank_account: account.id,
      description: "Budgets to the spreadsheet",
      enabled: true,
      disabled_reason: null,
      credential: { kind: "login", api_key: null },
      last_failure_at: null,
      last_failure_reason: null,
      created_at: expect.any(String),
      secret: expect.stringMatching(SECRET),
    });
    expect(Buffer.from(created.secret.slice("whsec_".length), "base64")).toHaveLength(32);
    const { secret: _secret, ...view } = created;

    const read = await t.as(owner).call(webhookRoutes.get, { id: created.id });
    expect(read.json()).toEqual(view);
    expect(read.body).not.toContain(created.secret);
    const listed = await t.as(owner).call(webhookRoutes.list, {});
    expect(listed.json()).toEqual({ count: 1, next: null, previous: null, results: [view] });

    const changed = await t.as(owner).call(webhookRoutes.update, {
      id: created.id,
      url: `${receiver.url}/crud-2`,
      event_types: ["*"],
      description: "",
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toEqual({
      ...view,
      url: `${receiver.url}/crud-2`,
      event_types: ["*"],
      description: "",
    });
    // Only what the PATCH names changes.
    const renamed = await t
      .as(owner)
      .call(webhookRoutes.update, { id: created.id, description: "All events" });
    expect(renamed.json()).toMatchObject({ url: `${receiver.url}/crud-2`, description: "All events" });

    const deleted = await t.as(owner).call(webhookRoutes.delete, { id: created.id });
    expect(deleted.statusCode).toBe(204);
    expect((await t.as(owner).call(webhookRoutes.get, { id: created.id })).statusCode).toBe(404);
    expect((await t.as(owner).call(webhookRoutes.list, {})).json().count).toBe(0);
    // Deleted, it receives nothing more.
    await aBudget(t, owner, account);
    await kit.deliver();
    expect(receiver.received("/crud-2")).toEqual([]);
  });

  it("sends only the subscribed types, of its account or (bank_account null) of every account of its owner", async () => {
    const owner = await t.user();
    const first = await anAccount(t, owner);
    const second = await anAccount(t, owner);
    await kit.webhook(owner, {
      url: `${receiver.url}/one`,
      bank_account: first.id,
      event_types: ["budget.created"],
    });
    await kit.webhook(owner, { url: `${receiver.url}/all`, event_types: ["*"] });
    await kit.webhook(owner, { url: `${receiver.url}/transfers`, event_types: ["transfer.created"] });
    await aBudget(t, owner, first);
    await aBudget(t, owner, second);
    // An account opened after the webhook: `null` means later accounts too.
    const third = await anAccount(t, owner);
    await aBudget(t, owner, third);
    await kit.deliver();

    const types = (path: string) =>
      receiver.received(path).map((r) => {
        const body = JSON.parse(r.body);
        return `${body.type} ${body.data.bank_account === first.id ? "first" : body.data.bank_account === second.id ? "second" : "third"}`;
      });
    expect(types("/one")).toEqual(["budget.created first"]);
    expect(types("/all").sort()).toEqual([
      "bank_account.created third",
      "budget.created first",
      "budget.created second",
      "budget.created third",
    ]);
    expect(types("/transfers")).toEqual([]);
  });

  it("sends a co-owner's changes to an owner's webhook, and nothing of accounts its owner does not own", async () => {
    const owner = await t.user();
    const stranger = await t.user();
    const account = await anAccount(t, owner);
    const theirs = await anAccount(t, stranger);
    await kit.webhook(owner, { url: `${receiver.url}/mine-only` });
    await aBudget(t, stranger, theirs);
    await aBudget(t, owner, account);
    await kit.deliver();
    const sent = receiver.received("/mine-only").map((r) => JSON.parse(r.body).data.bank_account);
    expect(sent).toEqual([account.id]);
  });

  it("rotates the secret: both sign for 24 hours, then the new one alone", async () => {
    const owner = await t.user();
    const account = await anAccount(t, owner);
    const created = await kit.webhook(owner, { url: `${receiver.url}/rotate`, bank_account: account.id });
    const rotated = await t.as(owner).call(webhookRoutes.rotateSecret, { id: created.id });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const { secret, ...view } = rotated.json();
    expect(secret).toMatch(SECRET);
    expect(secret).not.toBe(created.secret);
    const { secret: _old, ...createdView } = created;
    expect(view).toEqual(createdView);

    await aBudget(t, owner, account, { name: "During the overlap" });
    await kit.deliver();
    const [during] = receiver.received("/rotate");
    if (!during) throw new Error("nothing received");
    const headers = during.headers as Record<string, string>;
    expect(headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    // A receiver still on the old secret, and one already on the new, both accept it.
    expect(new Webhook(created.secret).verify(during.body, headers)).toMatchObject({
      type: "budget.created",
    });
    expect(new Webhook(secret).verify(during.body, headers)).toMatchObject({ type: "budget.created" });

    // A day and a second later the old one no longer signs (signatures checked as of that instant).
    await aBudget(t, owner, account, { name: "After the overlap" });
    const later = new Date(Date.now() + DAY_MS + 1_000);
    await kit.deliver(later);
    const after = receiver.received("/rotate")[1];
    if (!after) throw new Error("nothing received");
    const signatures = String(after.headers["webhook-signature"]).split(" ");
    const id = String(after.headers["webhook-id"]);
    const sent = new Date(Number(after.headers["webhook-timestamp"]) * 1000);
    expect(signatures).toEqual([new Webhook(secret).sign(id, sent, after.body)]);
    expect(signatures).not.toContain(new Webhook(created.secret).sign(id, sent, after.body));
  });

  it("sends a test event (202 with its delivery), and redelivers a delivery with the same webhook-id", async () => {
    const owner = await t.user();
    const hook = await kit.webhook(owner, { url: `${receiver.url}/test-event` });
    const tested = await t.as(owner).call(webhookRoutes.test, { id: hook.id });
    expect(tested.statusCode, tested.body).toBe(202);
    const delivery = tested.json();
    expect(delivery).toEqual({
      id: expect.any(String),
      event_id: expect.any(String),
      event_type: "webhook.test",
      status: "pending",
      attempts: 0,
      last_attempt_at: null,
      next_attempt_at: expect.any(String),
      response_status: null,
      response_time_ms: null,
      last_error: null,
      created_at: expect.any(String),
    });
    await kit.deliver();
    const [first] = receiver.received("/test-event");
    if (!first) throw new Error("nothing received");
    const payload = new Webhook(hook.secret).verify(first.body, first.headers as Record<string, string>);
    expect(payload).toEqual({
      type: "webhook.test",
      timestamp: delivery.created_at,
      data: {
        id: delivery.event_id,
        type: "webhook.test",
        occurred_at: delivery.created_at,
        bank_account: null,
        actor: { kind: "user", username: owner.username, api_key: null },
        request_id: tested.headers["x-request-id"],
        summary: `${owner.username} sent a test event to this webhook`,
        data: { webhook: hook.id },
      },
    });

    const again = await t.as(owner).call(webhookRoutes.redeliver, { id: hook.id, delivery_id: delivery.id });
    expect(again.statusCode, again.body).toBe(202);
    expect(again.json()).toMatchObject({ event_id: delivery.event_id, status: "pending", attempts: 0 });
    expect(again.json().id).not.toBe(delivery.id);
    await kit.deliver();
    const [, second] = receiver.received("/test-event");
    expect(second?.body).toBe(first.body);
    expect(second?.headers["webhook-id"]).toBe(delivery.event_id);

    const deliveries = (await t.as(owner).call(webhookRoutes.listDeliveries, { id: hook.id })).json();
    expect(deliveries.results.map((d) => [d.id, d.status, d.attempts])).toEqual([
      [again.json().id, "succeeded", 1],
      [delivery.id, "succeeded", 1],
    ]);
  });

  it("filters deliveries by status and event type (repeatable), newest first, paged", async () => {
    const owner = await t.user();
    const account = await anAccount(t, owner);
    const hook = await kit.webhook(owner, { url: `${receiver.url}/filters`, bank_account: account.id });
    await aBudget(t, owner, account, { name: "A" });
    await kit.deliver();
    await aBudget(t, owner, account, { name: "B" });
    await t.as(owner).call(webhookRoutes.test, { id: hook.id });
    const list = async (query: Omit<CallInput<typeof webhookRoutes.listDeliveries>, "id">) => {
      const response = await t.as(owner).call(webhookRoutes.listDeliveries, { id: hook.id, ...query });
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };
    expect((await list({})).results.map((d) => `${d.event_type} ${d.status}`)).toEqual([
      "webhook.test pending",
      "budget.created pending",
      "budget.created succeeded",
    ]);
    expect((await list({ status: "pending" })).count).toBe(2);
    expect((await list({ status: ["succeeded", "failed"] })).count).toBe(1);
    expect((await list({ event_type: "webhook.test" })).results.map((d) => d.event_type)).toEqual([
      "webhook.test",
    ]);
    expect((await list({ event_type: "budget.created", status: "pending" })).count).toBe(1);
    const paged = await list({ page_size: 2 });
    expect(paged.results).toHaveLength(2);
    expect(paged.next).toContain("page=2");
  });

  it("lets an API key manage its user's webhooks", async () => {
    const owner = await t.user();
    const key = await t.apiKey(owner);
    const created = await kit.webhook(key, { url: `${receiver.url}/by-key` });
    expect((await t.as(owner).call(webhookRoutes.get, { id: created.id })).statusCode).toBe(200);
    expect((await t.as(key).call(webhookRoutes.test, { id: created.id })).statusCode).toBe(202);
    expect((await t.as(key).call(webhookRoutes.delete, { id: created.id })).statusCode).toBe(204);
  });
});
