import type { Database } from "@allot/db/create-database";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { deliverDueWebhooks } from "@allot/domain/webhooks/deliver-webhooks";
import type { WebhookPoster } from "@allot/domain/webhooks/webhook-poster";
import { logLine } from "./log-line";
import { type PollingLoop, startPolling } from "./polling-loop";

// A delivery goes out within about this long of its commit; the due query reads a partial index.
const POLL_MS = 500;

export type WebhookDelivery = PollingLoop;

/**
 * Makes webhook delivery attempts as they come due, in every API process and in `pnpm cron`: the
 * outbox's claims keep them from making one attempt twice.
 */
export function startWebhookDelivery(db: Database, poster: WebhookPoster): WebhookDelivery {
  return startPolling(
    POLL_MS,
    () => deliverDueWebhooks(internalContext(db, "scheduler"), { poster }),
    (error) => logLine({ job: "deliver-webhooks", status: "failed", error: String(error) }),
  );
}
