import type { DatabaseHandle } from "@allot/db/create-database";
import type { SecretVault } from "@allot/domain/secrets/secret-vault";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { deliverDueWebhooks } from "@allot/domain/webhooks/deliver-webhooks";
import { WEBHOOK_SENDERS_CHANNEL } from "@allot/domain/webhooks/wake-senders";
import type { WebhookPoster } from "@allot/domain/webhooks/webhook-poster";
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
  { poster, vault }: { poster: WebhookPoster; vault: SecretVault },
  { pollMs = POLL_MS }: { pollMs?: number } = {},
): WebhookDelivery {
  const log = (error: unknown) =>
    logLine({ job: "deliver-webhooks", status: "failed", error: String(error) });
  const loop = startPolling(
    pollMs,
    () => deliverDueWebhooks(internalContext(database.db, "scheduler"), { poster, vault }),
    log,
  );
  const listening = database
    .listen(WEBHOOK_SENDERS_CHANNEL, () => loop.nudge())
    .catch((error: unknown) => {
      log(error);
      return null;
    });
  return {
    async stop() {
      await (await listening)?.().catch(log);
      await loop.stop();
    },
  };
}
