import type { Database } from "@allot/db/create-database";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { deliverDueWebhooks } from "@allot/domain/webhooks/deliver-webhooks";
import type { WebhookPoster } from "@allot/domain/webhooks/webhook-poster";
import { logLine } from "./log-line";

// A delivery goes out within about this long of its commit; the due query reads a partial index.
const POLL_MS = 500;

export interface WebhookDelivery {
  /** Stops polling and waits for a pass under way. */
  stop(): Promise<void>;
}

/**
 * Makes webhook delivery attempts as they come due, in every API process and in `pnpm cron`: the
 * outbox's claims keep them from making one attempt twice. A pass that finds the previous one
 * still running is skipped.
 */
export function startWebhookDelivery(db: Database, poster: WebhookPoster): WebhookDelivery {
  let running: Promise<void> | null = null;
  const pass = () => {
    running ??= deliverDueWebhooks(internalContext(db, "scheduler"), { poster })
      .then(() => undefined)
      .catch((error: unknown) => logLine({ job: "deliver-webhooks", status: "failed", error: String(error) }))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(pass, POLL_MS);
  pass();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
