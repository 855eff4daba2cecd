import { webhookRoutes } from "@allot/contract/webhooks/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { activityOf } from "../../../test/testing/activity";
import { aBudget, anAccount } from "../../../test/testing/fixtures";
import { useTestApp } from "../../../test/testing/test-app";
import { useWebhookReceiver } from "../../../test/testing/webhook-receiver";
import { webhooksKit } from "../../../test/testing/webhooks-test-kit";

describe.each(testEngines())("webhooks over HTTP: delivery (%s)", (engine) => {
  const t = useTestApp(engine);
  const receiver = useWebhookReceiver();
  const kit = webhooksKit(t);

  it("sends an account's event after its commit, signed so that standardwebhooks verifies it", async () => {
    const owner = await t.user();
    const account = await anAccount(t, owner);
    const hook = await kit.webhook(owner, { url: `${receiver.url}/signed`, bank_account: account.id });
    await aBudget(t, owner, account);
    expect(receiver.received("/signed")).toEqual([]);

    expect(await kit.deliver()).toEqual({ succeeded: 1, failed: 0 });
    const [request] = receiver.received("/signed");
    if (!request) throw new Error("nothing received");
    const [event] = await activityOf(t, owner, account.id);
    const payload = new Webhook(hook.secret).verify(request.body, request.headers as Record<string, string>);
    expect(payload).toEqual({ type: "budget.created", timestamp: event?.occurred_at, data: event });
    expect(request.headers["webhook-id"]).toBe(event?.id);
    expect(request.headers["content-type"]).toBe("application/json");

    const deliveries = await t.as(owner).call(webhookRoutes.listDeliveries, { id: hook.id });
    expect(deliveries.statusCode, deliveries.body).toBe(200);
    expect(deliveries.json().results).toEqual([
      {
        id: expect.any(String),
        event_id: event?.id,
        event_type: "budget.created",
        status: "succeeded",
        attempts: 1,
        last_attempt_at: expect.any(String),
        next_attempt_at: null,
        response_status: 200,
        response_time_ms: expect.any(Number),
        last_error: null,
        created_at: event?.occurred_at,
      },
    ]);
    expect((await t.as(owner).call(webhookRoutes.get, { id: hook.id })).json().enabled).toBe(true);
  });
});
