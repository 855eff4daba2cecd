import { randomUUID } from "node:crypto";
import { webhookRoutes } from "@allot/contract/webhooks/routes";
import { webhooks } from "@allot/db/schema/webhooks";
import { testEngines } from "@allot/db/testing/test-databases";
import { MAX_WEBHOOKS_PER_USER } from "@allot/domain/webhooks/create-webhook";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { anAccount } from "../../../test/testing/fixtures";
import { useTestApp } from "../../../test/testing/test-app";
import { webhooksKit } from "../../../test/testing/webhooks-test-kit";

const URL = "https://hooks.example.com/allot";

describe.each(testEngines())("webhooks over HTTP: refusals (%s)", (engine) => {
  const t = useTestApp(engine);
  const kit = webhooksKit(t);

  it("refuses a bad url, event list, account or description with 400 on that field, writing nothing", async () => {
    const owner = await t.user();
    const stranger = await t.user();
    const theirs = await anAccount(t, stranger);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ url: "" }, "url", "This field may not be blank."],
      [{ url: "not a url" }, "url", "Enter a valid URL."],
      [{ url: "ftp://hooks.example.com/" }, "url", "The URL must start with https:// or http://."],
      [
        { url: "https://user:pass@hooks.example.com/" },
        "url",
        "Leave the user name and password out of the URL.",
      ],
      [
        { url: `https://hooks.example.com/${"a".repeat(2048)}` },
        "url",
        "Ensure this field has no more than 2048 characters.",
      ],
      [{ event_types: [] }, "event_types", "This list may not be empty."],
      [{ event_types: ["budget.exploded"] }, "event_types", '"budget.exploded" is not a valid event type.'],
      [
        { event_types: ["*", "budget.created"] },
        "event_types",
        '"*" stands alone: it already means every type.',
      ],
      [{ event_types: ["budget.created", "budget.created"] }, "event_types", "Name each type once."],
      [{ event_types: ["webhook.test"] }, "event_types", '"webhook.test" is not a valid event type.'],
      [{ bank_account: theirs.id }, "bank_account", `Invalid pk "${theirs.id}" - object does not exist.`],
      [{ bank_account: "nope" }, "bank_account", 'Invalid pk "nope" - object does not exist.'],
      [{ description: "d".repeat(256) }, "description", "Ensure this field has no more than 255 characters."],
    ];
    for (const [fields, key, message] of cases) {
      const response = await t
        .as(owner)
        .callUnchecked(webhookRoutes.create, { url: URL, event_types: ["*"], ...fields });
      expect(response.statusCode, JSON.stringify(fields)).toBe(400);
      expect(response.json(), JSON.stringify(fields)).toEqual({ [key]: [message] });
    }
    const missing = await t.as(owner).callUnchecked(webhookRoutes.create, {});
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json()).sort()).toEqual(["event_types", "url"]);
    expect(await t.db.select().from(webhooks).where(eq(webhooks.userId, owner.id))).toEqual([]);
  });

  it("refuses http:// unless WEBHOOK_ALLOW_HTTP, on create and on PATCH", async () => {
    // This harness allows http (its receivers are plain HTTP); the strict one of security tests does not.
    const owner = await t.user();
    const hook = await kit.webhook(owner, { url: "http://hooks.example.com/plain" });
    expect(hook.url).toBe("http://hooks.example.com/plain");
    const patched = await t
      .as(owner)
      .callUnchecked(webhookRoutes.update, { id: hook.id, url: "gopher://x.example/" });
    expect(patched.statusCode).toBe(400);
    expect(patched.json()).toEqual({ url: ["The URL must start with https:// or http://."] });
  });

  it(`keeps at most ${MAX_WEBHOOKS_PER_USER} webhooks a user`, async () => {
    const owner = await t.user();
    for (let i = 0; i < MAX_WEBHOOKS_PER_USER; i += 1) await kit.webhook(owner, { url: `${URL}/${i}` });
    const refused = await t
      .as(owner)
      .call(webhookRoutes.create, { url: `${URL}/one-more`, event_types: ["*"] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      non_field_errors: [`A user may keep at most ${MAX_WEBHOOKS_PER_USER} webhooks; delete one first.`],
    });
    // Another user is not held to the first one's count.
    expect(
      (await t.as(await t.user()).call(webhookRoutes.create, { url: URL, event_types: ["*"] })).statusCode,
    ).toBe(201);
  });

  it("refuses a test or a redelivery to a disabled webhook with 409, and an unknown delivery with 404", async () => {
    const owner = await t.user();
    const hook = await kit.webhook(owner, { url: URL });
    const delivery = (await t.as(owner).call(webhookRoutes.test, { id: hook.id })).json();
    const disabled = await t.as(owner).call(webhookRoutes.update, { id: hook.id, enabled: false });
    expect(disabled.json()).toMatchObject({ enabled: false, disabled_reason: "owner" });
    // Disabling fails what was pending: it would otherwise go out days late when enabled again.
    const [failed] = (await t.as(owner).call(webhookRoutes.listDeliveries, { id: hook.id })).json().results;
    expect(failed).toMatchObject({
      status: "failed",
      next_attempt_at: null,
      last_error: "Not sent: the webhook was disabled.",
    });

    const conflict = {
      detail: "This webhook is disabled; enable it (PATCH enabled=true) to send to it.",
      code: "webhook_disabled",
    };
    const tested = await t.as(owner).call(webhookRoutes.test, { id: hook.id });
    expect(tested.statusCode).toBe(409);
    expect(tested.json()).toEqual(conflict);
    const again = await t.as(owner).call(webhookRoutes.redeliver, { id: hook.id, delivery_id: delivery.id });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual(conflict);

    const unknown = await t
      .as(owner)
      .call(webhookRoutes.redeliver, { id: hook.id, delivery_id: randomUUID() });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({
      detail: "No delivery of this webhook matches the given id.",
      code: "not_found",
    });
    // A delivery of another webhook of the same user is not this webhook's.
    const other = await kit.webhook(owner, { url: `${URL}/other` });
    const crossed = await t
      .as(owner)
      .call(webhookRoutes.redeliver, { id: other.id, delivery_id: delivery.id });
    expect(crossed.statusCode).toBe(404);

    const enabled = await t.as(owner).call(webhookRoutes.update, { id: hook.id, enabled: true });
    expect(enabled.json().enabled).toBe(true);
    expect(
      (await t.as(owner).call(webhookRoutes.redeliver, { id: hook.id, delivery_id: delivery.id })).statusCode,
    ).toBe(202);
  });

  it("refuses unknown filters on deliveries with 400 on that parameter", async () => {
    const owner = await t.user();
    const hook = await kit.webhook(owner, { url: URL });
    for (const [query, key] of [
      [{ status: "lost" }, "status"],
      [{ event_type: "budget.exploded" }, "event_type"],
      [{ page: "0" }, "page"],
    ] as const) {
      const response = await t
        .as(owner)
        .callUnchecked(webhookRoutes.listDeliveries, { id: hook.id, ...query });
      expect(response.statusCode, JSON.stringify(query)).toBe(400);
      expect(Object.keys(response.json())).toEqual([key]);
    }
  });
});
