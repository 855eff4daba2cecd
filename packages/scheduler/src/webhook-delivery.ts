import type { DatabaseHandle } from "@allot/db/create-database";
import { WEBHOOK_SENDERS_CHANNEL } from "@allot/domain/events/wake-webhook-senders";
import type { SecretVault } from "@allot/domain/secrets/secret-vault";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { deliverDueWebhooks, type WebhookAttemptFailure } from "@allot/domain/webhooks/deliver-webhooks";
import type { WebhookPoster } from "@allot/domain/webhooks/webhook-poster";
import type { Log } from "@allot/logging/log";
import { logLine } from "./log-line";
import { type PollingLoop, startPolling } from "./polling-loop";

// The fallback when no notification comes: retries coming due, a listening connection lost.
const POLL_MS = 500;

export type WebhookDelivery = Pick<PollingLoop, "stop">;

/**
 * Makes webhook delivery attempts as they come due, in every API process and in `pnpm cron`: the
 * outbox's claims keep them from making one attempt twice. A pass starts when a transaction that
 * queued deliveries commits (LISTEN), and every POLL_MS.
 */
export function startWebhookDelivery(
  database: DatabaseHandle,
  { poster, vault, log }: { poster: WebhookPoster; vault: SecretVault; log: Log },
  { pollMs = POLL_MS }: { pollMs?: number } = {},
): WebhookDelivery {
  const logFailure = (error: unknown) =>
    logLine(log, { job: "deliver-webhooks", status: "failed", error: String(error) });
  const loop = startPolling(
    pollMs,
    () =>
      deliverDueWebhooks(internalContext(database.db, "scheduler"), {
        poster,
        vault,
        onFailure: webhookFailureWarning(log),
      }),
    logFailure,
  );
  const listening = database
    .listen(WEBHOOK_SENDERS_CHANNEL, () => loop.nudge())
    .catch((error: unknown) => {
      logFailure(error);
      return null;
    });
  return {
    async stop() {
      await (await listening)?.().catch(logFailure);
      await loop.stop();
    },
  };
}

/**
 * A failed attempt as a warning: the webhook, the receiver's host (never its path or query, which
 * may hold a token of the receiver's), the status or error, the attempt and the next one.
 */
export const webhookFailureWarning =
  (log: Log) =>
  (failure: WebhookAttemptFailure): void =>
    log.warn(
      { job: "deliver-webhooks", ...failure },
      `webhook ${failure.webhook_id} delivery to ${failure.host} failed (attempt ${failure.attempt}): ${failure.reason}`,
    );
