import { webhookRoutes } from "@allot/contract/webhooks/routes";
import { bankAccountOwners } from "@allot/db/schema/bank-accounts";
import { testEngines } from "@allot/db/testing/test-databases";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { STRICT_WEBHOOK_POLICY } from "@allot/domain/webhooks/address-policy";
import { deliverDueWebhooks } from "@allot/domain/webhooks/deliver-webhooks";
import { httpWebhookPoster } from "@allot/webhook-poster/http-webhook-poster";
import { and, eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { aBudget, anAccount } from "../../../test/testing/fixtures";
import { useTestApp } from "../../../test/testing/test-app";
import { useWebhookReceiver } from "../../../test/testing/webhook-receiver";
import { webhooksKit } from "../../../test/testing/webhooks-test-kit";

describe.each(testEngines())("webhooks over HTTP: where they may point (%s)", (engine) => {
  // The production policy: https only, public addresses only.
  const t = useTestApp(engine, { webhooks: STRICT_WEBHOOK_POLICY });

  it("refuses loopback, RFC 1918, link-local, unique-local, multicast and names resolving to them (400 on url)", async () => {
    const owner = await t.user();
    const refused = [
      ["https://127.0.0.1/hook", "127.0.0.1"],
      ["https://10.0.0.8/hook", "10.0.0.8"],
      ["https://172.20.1.1/hook", "172.20.1.1"],
      ["https://192.168.0.10:8443/hook", "192.168.0.10"],
      ["https://169.254.169.254/latest/meta-data/", "169.254.169.254"],
      ["https://[::1]/hook", "::1"],
      ["https://[fd12:3456::1]/hook", "fd12:3456::1"],
      ["https://[::ffff:127.0.0.1]/hook", "::ffff:7f00:1"],
      ["https://224.0.0.251/hook", "224.0.0.251"],
      ["https://0.0.0.0/hook", "0.0.0.0"],
    ];
    for (const [url, address] of refused) {
      const response = await t.as(owner).call(webhookRoutes.create, { url: String(url), event_types: ["*"] });
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toEqual({
        url: [
          `The URL's host resolves to ${address}, a private or reserved address; webhooks reach public hosts only.`,
        ],
      });
    }
    // A DNS name is resolved, and each of its addresses judged: localhost is 127.0.0.1 (and ::1).
    const named = await t
      .as(owner)
      .call(webhookRoutes.create, { url: "https://localhost:8443/hook", event_types: ["*"] });
    expect(named.statusCode).toBe(400);
    expect(named.json().url[0]).toMatch(
      /^The URL's host resolves to (127\.0\.0\.1|::1), a private or reserved address/,
    );
    // http:// is refused here (WEBHOOK_ALLOW_HTTP unset), whatever the host.
    const plain = await t
      .as(owner)
      .call(webhookRoutes.create, { url: "http://93.184.215.14/hook", event_types: ["*"] });
    expect(plain.json()).toEqual({ url: ["The URL must start with https://."] });
    // A public address is accepted; so is the same check on PATCH.
    const ok = await t
      .as(owner)
      .call(webhookRoutes.create, { url: "https://93.184.215.14/hook", event_types: ["*"] });
    expect(ok.statusCode, ok.body).toBe(201);
    const moved = await t
      .as(owner)
      .call(webhookRoutes.update, { id: ok.json().id, url: "https://169.254.169.254/" });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().url[0]).toContain("169.254.169.254");
  });
});

describe.each(testEngines())("webhooks over HTTP: what a delivery checks again (%s)", (engine) => {
  // Created while private addresses were allowed (the receiver is on loopback), then sent by a
  // sender that allows them no longer: as if the host's DNS now answered 127.0.0.1 (rebinding).
  const t = useTestApp(engine);
  const receiver = useWebhookReceiver();
  const kit = webhooksKit(t);
  const strict = httpWebhookPoster({ allowHttp: true, allowPrivate: false });
  afterAll(() => strict.close());
  const deliverStrictly = () =>
    deliverDueWebhooks(internalContext(t.db, "scheduler"), { poster: strict, vault: t.vault });

  it("refuses at delivery a host that resolves to a private address, by literal or by name", async () => {
    const owner = await t.user();
    const account = await anAccount(t, owner);
    const port = new URL(receiver.url).port;
    const literal = await kit.webhook(owner, {
      url: `http://127.0.0.1:${port}/literal`,
      bank_account: account.id,
    });
    const named = await kit.webhook(owner, {
      url: `http://localhost:${port}/named`,
      bank_account: account.id,
    });
    await aBudget(t, owner, account);
    expect(await deliverStrictly()).toEqual({ succeeded: 0, failed: 2 });
    expect(receiver.received("/literal")).toEqual([]);
    expect(receiver.received("/named")).toEqual([]);
    const [byLiteral] = (await t.as(owner).call(webhookRoutes.listDeliveries, { id: literal.id })).json()
      .results;
    expect(byLiteral).toMatchObject({
      status: "pending",
      attempts: 1,
      response_status: null,
      last_error:
        "Refused: 127.0.0.1 is a private or reserved address (the server's WEBHOOK_ALLOW_PRIVATE is not true).",
    });
    const [byName] = (await t.as(owner).call(webhookRoutes.listDeliveries, { id: named.id })).json().results;
    expect(byName?.last_error).toMatch(
      /^Refused: localhost resolves to (127\.0\.0\.1|::1), a private or reserved address \(the server's WEBHOOK_ALLOW_PRIVATE is not true\)\.$/,
    );
  });

  it("shows a webhook's last failure and why (list and GET) until an attempt made after it succeeds", async () => {
    const owner = await t.user();
    const account = await anAccount(t, owner);
    const hook = await kit.webhook(owner, { url: `${receiver.url}/restarted`, bank_account: account.id });
    const shown = async () => (await t.as(owner).call(webhookRoutes.get, { id: hook.id })).json();
    expect(await shown()).toMatchObject({ last_failure_at: null, last_failure_reason: null });

    // Created while http:// was allowed; the server then restarted without WEBHOOK_ALLOW_HTTP.
    const httpsOnly = httpWebhookPoster({ allowHttp: false, allowPrivate: true });
    await aBudget(t, owner, account);
    const first = new Date();
    const refused = await deliverDueWebhooks(
      { ...internalContext(t.db, "scheduler"), now: first },
      { poster: httpsOnly, vault: t.vault },
    );
    await httpsOnly.close();
    expect(refused).toEqual({ succeeded: 0, failed: 1 });
    expect(receiver.received("/restarted")).toEqual([]);
    const reason =
      "Refused: http:// URLs are not allowed, only https:// (the server's WEBHOOK_ALLOW_HTTP is not true).";
    const [delivery] = (await t.as(owner).call(webhookRoutes.listDeliveries, { id: hook.id })).json().results;
    expect(delivery?.last_error).toBe(reason);
    const listed = (await t.as(owner).call(webhookRoutes.list, {})).json().results;
    expect(listed).toEqual([
      expect.objectContaining({
        id: hook.id,
        last_failure_at: delivery?.last_attempt_at,
        last_failure_reason: reason,
      }),
    ]);
    expect(JSON.stringify(listed)).not.toContain("whsec_");

    // Allowed again, the receiver answers 500: the newer failure takes its place.
    receiver.answerWith(() => ({ status: 500 }));
    await kit.deliver(new Date(first.getTime() + 60_000));
    const failing = await shown();
    expect(failing).toMatchObject({ last_failure_reason: "HTTP 500" });
    expect(Date.parse(String(failing.last_failure_at))).toBeGreaterThanOrEqual(first.getTime() + 60_000);

    // The next attempt (5 minutes on) succeeds: the webhook works again, no failure shown.
    receiver.reset();
    await kit.deliver(new Date(first.getTime() + 3_600_000));
    expect(receiver.received("/restarted")).toHaveLength(1);
    expect(await shown()).toMatchObject({ last_failure_at: null, last_failure_reason: null });
    receiver.reset();
  });

  it("follows no redirect and keeps only the start of a long error answer", async () => {
    const owner = await t.user();
    const account = await anAccount(t, owner);
    const moved = await kit.webhook(owner, { url: `${receiver.url}/moved`, bank_account: account.id });
    const chatty = await kit.webhook(owner, { url: `${receiver.url}/chatty`, bank_account: account.id });
    receiver.answerWith((request) => {
      if (request.path === "/moved")
        return { status: 302, headers: { location: `${receiver.url}/elsewhere` } };
      if (request.path === "/chatty") return { status: 500, body: "x".repeat(1_000_000) };
      return { status: 200 };
    });
    await aBudget(t, owner, account);
    await kit.deliver();
    expect(receiver.received("/elsewhere")).toEqual([]);
    const [redirected] = (await t.as(owner).call(webhookRoutes.listDeliveries, { id: moved.id })).json()
      .results;
    expect(redirected).toMatchObject({
      status: "pending",
      response_status: 302,
      last_error: "HTTP 302 (redirects are not followed)",
    });
    const [long] = (await t.as(owner).call(webhookRoutes.listDeliveries, { id: chatty.id })).json().results;
    expect(long?.response_status).toBe(500);
    expect(long?.last_error).toBe(`HTTP 500: ${"x".repeat(500)}`);
    receiver.reset();
  });

  it("sends nothing more of an account once the webhook's owner no longer owns it", async () => {
    const owner = await t.user();
    const account = await anAccount(t, owner);
    const hook = await kit.webhook(owner, { url: `${receiver.url}/left` });
    await aBudget(t, owner, account);
    await t.db
      .delete(bankAccountOwners)
      .where(and(eq(bankAccountOwners.bankAccountId, account.id), eq(bankAccountOwners.userId, owner.id)));
    await kit.deliver();
    expect(receiver.received("/left")).toEqual([]);
    const [delivery] = (await t.as(owner).call(webhookRoutes.listDeliveries, { id: hook.id })).json().results;
    expect(delivery).toMatchObject({
      status: "failed",
      attempts: 0,
      last_error: "Not sent: the webhook's owner no longer owns this account.",
    });
  });

  it("never shows the secret after creation, nor another user's webhooks or deliveries", async () => {
    const owner = await t.user();
    const other = await t.user();
    const hook = await kit.webhook(owner, { url: `${receiver.url}/private` });
    for (const response of [
      await t.as(other).call(webhookRoutes.listDeliveries, { id: hook.id }),
      await t.as(other).call(webhookRoutes.update, { id: hook.id, enabled: false }),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain(hook.url);
    }
    const listed = await t.as(owner).call(webhookRoutes.listDeliveries, { id: hook.id });
    expect(listed.body).not.toContain(hook.secret);
  });
});
