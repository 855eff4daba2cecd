import { webhookRoutes } from "@allot/contract/webhooks/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { STRICT_WEBHOOK_POLICY } from "@allot/domain/webhooks/address-policy";
import { deliverDueWebhooks } from "@allot/domain/webhooks/deliver-webhooks";
import { httpWebhookPoster } from "@allot/webhook-poster/http-webhook-poster";
import { afterAll, describe, expect, it } from "vitest";
import { aBudget, anAccount } from "../../../test/testing/fixtures";
import { useTestApp } from "../../../test/testing/test-app";
import { webhooksKit } from "../../../test/testing/webhooks-test-kit";

// IPv4-compatible IPv6 (`::a.b.c.d`, deprecated): a URL writes `[::127.0.0.1]` as `[::7f00:1]`.
const ipv4Compatible = [
  ["https://[::127.0.0.1]/hook", "::7f00:1"],
  ["https://[::7f00:1]/hook", "::7f00:1"],
  ["https://[::10.0.0.1]/hook", "::a00:1"],
  ["https://[::169.254.169.254]/hook", "::a9fe:a9fe"],
  ["https://[0:0:0:0:0:0:8.8.8.8]/hook", "::808:808"],
];

describe.each(testEngines())("webhooks over HTTP: IPv4-compatible addresses (%s)", (engine) => {
  describe("at creation", () => {
    const t = useTestApp(engine, { webhooks: STRICT_WEBHOOK_POLICY });

    it("refuses every ::/96 host like the other embedded-IPv4 forms (400 on url)", async () => {
      const owner = await t.user();
      for (const [url, address] of ipv4Compatible) {
        const response = await t
          .as(owner)
          .call(webhookRoutes.create, { url: String(url), event_types: ["*"] });
        expect(response.statusCode, url).toBe(400);
        expect(response.json(), url).toEqual({
          url: [
            `The URL's host resolves to ${address}, a private or reserved address; webhooks reach public hosts only.`,
          ],
        });
      }
    });
  });

  describe("at delivery", () => {
    // Created while private addresses were allowed, then sent by a sender that allows them no longer.
    const t = useTestApp(engine);
    const kit = webhooksKit(t);
    const strict = httpWebhookPoster({ allowHttp: true, allowPrivate: false });
    afterAll(() => strict.close());

    it("refuses a ::/96 literal before connecting", async () => {
      const owner = await t.user();
      const account = await anAccount(t, owner);
      const hook = await kit.webhook(owner, { url: "http://[::127.0.0.1]:9/hook", bank_account: account.id });
      await aBudget(t, owner, account);
      expect(
        await deliverDueWebhooks(internalContext(t.db, "scheduler"), { poster: strict, vault: t.vault }),
      ).toEqual({
        succeeded: 0,
        failed: 1,
      });
      const [delivery] = (await t.as(owner).call(webhookRoutes.listDeliveries, { id: hook.id })).json()
        .results;
      expect(delivery?.last_error).toBe(
        "Refused: ::7f00:1 is a private or reserved address (the server's WEBHOOK_ALLOW_PRIVATE is not true).",
      );
    });
  });
});
