import { webhookRoutes } from "@allot/contract/webhooks/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { recordingLog } from "@allot/logging/testing/recording-log";
import { startWebhookDelivery, type WebhookDelivery } from "@allot/scheduler/webhook-delivery";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aBudget, anAccount } from "../../../test/testing/fixtures";
import { useTestApp } from "../../../test/testing/test-app";
import { useWebhookReceiver } from "../../../test/testing/webhook-receiver";
import { webhooksKit } from "../../../test/testing/webhooks-test-kit";

// Polling so rare that only the commit's notification can start the pass that sends.
const NEVER_MS = 3_600_000;

describe.each(testEngines())("webhooks over HTTP: senders woken by the commit (%s)", (engine) => {
  const t = useTestApp(engine);
  const receiver = useWebhookReceiver();
  const kit = webhooksKit(t);
  let delivery: WebhookDelivery;
  beforeAll(async () => {
    delivery = startWebhookDelivery(
      t.database,
      { poster: kit.poster, vault: t.vault, log: recordingLog().log },
      { pollMs: NEVER_MS },
    );
  });
  afterAll(() => delivery?.stop());

  it("sends a change's event when it commits, and a test event when it is queued, without waiting for a poll", async () => {
    const owner = await t.user();
    const account = await anAccount(t, owner);
    const hook = await kit.webhook(owner, { url: `${receiver.url}/woken`, bank_account: account.id });
    const budget = await aBudget(t, owner, account);
    const [first] = await receiver.waitFor(1);
    expect(JSON.parse(String(first?.body))).toMatchObject({
      type: "budget.created",
      data: { data: { budget: budget.id } },
    });

    const tested = await t.as(owner).call(webhookRoutes.test, { id: hook.id });
    expect(tested.statusCode).toBe(202);
    const [, second] = await receiver.waitFor(2);
    expect(second?.headers["webhook-id"]).toBe(tested.json().event_id);
  });
});
