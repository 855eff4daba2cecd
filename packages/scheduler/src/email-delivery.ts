import type { Database } from "@allot/db/create-database";
import { issueQueuedPasswordResets } from "@allot/domain/credentials/issue-queued-password-resets";
import { deliverDueEmails } from "@allot/domain/email/deliver-emails";
import type { MailTransport } from "@allot/domain/email/outgoing-email";
import { deliverImmediateNotifications } from "@allot/domain/notifications/deliver-notifications";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { logLine } from "./log-line";

// Messages go out within this long of their commit; the due-message query reads a partial index.
const POLL_MS = 1_000;

export interface EmailDelivery {
  /** Stops polling and waits for a pass under way. */
  stop(): Promise<void>;
}

/**
 * Turns immediate notifications and queued password-reset requests into emails, then sends queued
 * emails as they come due: the outbox's claims keep several processes from sending one message
 * twice. A pass that finds the previous one still running is skipped.
 */
export function startEmailDelivery(
  db: Database,
  transport: MailTransport,
  options: { publicBaseUrl: string },
): EmailDelivery {
  let running: Promise<void> | null = null;
  const pass = () => {
    const context = internalContext(db, "scheduler");
    // Each step as of its own start, so the emails the first two queue are due for the third.
    const asOfNow = () => ({ ...context, now: new Date() });
    running ??= deliverImmediateNotifications(asOfNow())
      .then(() => issueQueuedPasswordResets(asOfNow(), { publicBaseUrl: options.publicBaseUrl }))
      .then(() => deliverDueEmails(asOfNow(), { transport }))
      .then((report) => {
        if (report.failed > 0) logLine({ job: "deliver-emails", status: "retrying", ...report });
      })
      .catch((error: unknown) => logLine({ job: "deliver-emails", status: "failed", error: String(error) }))
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
