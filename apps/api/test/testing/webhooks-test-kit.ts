import { webhookRoutes } from "@allot/contract/webhooks/routes";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { deliverDueWebhooks } from "@allot/domain/webhooks/deliver-webhooks";
import { httpWebhookPoster } from "@allot/webhook-poster/http-webhook-poster";
import { afterAll } from "vitest";
import type { TestApp } from "./test-app";
import type { Caller, CallInput } from "./test-client";

/**
 * What the webhook tests share: a webhook made over HTTP, and a sender pass (the loop's one pass)
 * through the real HTTP poster, as of now or of a later instant (retries come due in hours).
 */
export function webhooksKit(t: TestApp, options: { timeoutMs?: number } = {}) {
  const poster = httpWebhookPoster({ allowHttp: true, allowPrivate: true }, options);
  afterAll(() => poster.close());
  return {
    poster,
    async webhook(
      owner: Exclude<Caller, null>,
      input: Partial<CallInput<typeof webhookRoutes.create>> & { url: string },
    ) {
      const response = await t.as(owner).call(webhookRoutes.create, { event_types: ["*"], ...input });
      if (response.statusCode !== 201) throw new Error(`webhook: ${response.statusCode} ${response.body}`);
      return response.json();
    },
    /** One pass of the sender, as of `at` (now unless told). */
    deliver: (at?: Date) =>
      deliverDueWebhooks(
        { ...internalContext(t.db, "scheduler"), now: at ?? new Date() },
        { poster, vault: t.vault },
      ),
  };
}
