import type { Database } from "@allot/db/create-database";
import { issueQueuedPasswordResets } from "@allot/domain/credentials/issue-queued-password-resets";
import { deliverDueEmails } from "@allot/domain/email/deliver-emails";
import type { MailTransport } from "@allot/domain/email/outgoing-email";
import { deliverImmediateNotifications } from "@allot/domain/notifications/deliver-notifications";
import type { SecretVault } from "@allot/domain/secrets/secret-vault";
import { internalContext } from "@allot/domain/shared/use-case-context";
import type { Log } from "@allot/logging/log";
import { logLine } from "./log-line";
import { type PollingLoop, startPolling } from "./polling-loop";

// Messages go out within this long of their commit; the due-message query reads a partial index.
const POLL_MS = 1_000;

export type EmailDelivery = PollingLoop;

/**
 * Turns immediate notifications and queued password-reset requests into emails, then sends queued
 * emails as they come due: the outbox's claims keep several processes from sending one message
 * twice. Every API process runs it (apps/api main.ts); `pnpm cron` does not send email, its
 * deliver-digests job only queues digests.
 */
export function startEmailDelivery(
  db: Database,
  transport: MailTransport,
  options: {
    publicBaseUrl: string;
    vault: SecretVault;
    log: Log;
    /** MAIL_TRANSPORT, named in the warning a failed send logs. */
    transportName: string;
  },
): EmailDelivery {
  const { log, transportName } = options;
  const context = internalContext(db, "scheduler");
  // Each step as of its own start, so the emails the first two queue are due for the third.
  const asOfNow = () => ({ ...context, now: new Date() });
  return startPolling(
    POLL_MS,
    async () => {
      // The vault seals the bodies the first two queue and opens them for the send (decision 0049).
      await deliverImmediateNotifications(asOfNow(), options);
      await issueQueuedPasswordResets(asOfNow(), options);
      // Each failed send is a warning: which message, the reason, when it is tried again. Never
      // the recipient or the body (its links hold tokens).
      await deliverDueEmails(asOfNow(), {
        transport,
        vault: options.vault,
        onFailure: (failure) =>
          log.warn(
            { job: "deliver-emails", transport: transportName, ...failure },
            `email ${failure.outbox_id} not sent (attempt ${failure.attempt}): ${failure.reason}`,
          ),
      });
    },
    (error) => logLine(log, { job: "deliver-emails", status: "failed", error: String(error) }),
  );
}
