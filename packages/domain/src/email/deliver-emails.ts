import type { Database } from "@allot/db/create-database";
import { emailOutbox } from "@allot/db/schema/email-outbox";
import { eq, sql } from "drizzle-orm";
import type { SecretVault } from "../secrets/secret-vault";
import type { PublicContext } from "../shared/use-case-context";
import { maskLinkTokens } from "./link-tokens";
import type { EmailToSend, MailTransport } from "./outgoing-email";
import { retryDelayMs } from "./retry-delay";

// Longer than any send takes: a sender that dies mid-send frees its messages after this.
const CLAIM_MS = 5 * 60_000;
const BATCH = 50;
const ERROR_TEXT_LIMIT = 2_000;
// Of the reason, this much goes in the log line.
const LOGGED_REASON_LIMIT = 300;

/** A send that failed, as the log tells it: never the recipient, a link or the body. */
export interface EmailSendFailure {
  outbox_id: string;
  kind: string;
  attempt: number;
  /** The transport's error, links' tokens and the recipient's address masked. */
  reason: string;
  next_attempt_at: string;
}

export interface DeliveryReport {
  sent: number;
  failed: number;
}

/**
 * Sends the messages that are due, oldest first, in batches. Each batch is claimed in one short
 * transaction (`for update skip locked`, then `claimed_until`), so several API and cron processes
 * never send the same message; each message is then marked sent, or given its next attempt time.
 * A message is sent twice only if the process dies between the transport's success and the mark;
 * transports pass the outbox id along so the provider (resend's idempotency key) or the file name
 * makes that repeat harmless. The bodies are opened (decision 0049) only here, for the send: one
 * that cannot be opened (sealed with a key this process does not hold) fails like a refused send.
 */
export async function deliverDueEmails(
  { db, now: startedAt }: PublicContext,
  {
    transport,
    vault,
    onFailure = () => {},
  }: {
    transport: MailTransport;
    vault: SecretVault;
    /** Told of each failed send, once its retry is scheduled (the process logs a warning). */
    onFailure?: (failure: EmailSendFailure) => void;
  },
): Promise<DeliveryReport> {
  // The clock moves on from the context's instant as the pass goes: a long pass claims each batch,
  // and times each send, as of when it happens, so no claim is out of date when it is made.
  const started = Date.now();
  const now = () => new Date(startedAt.getTime() + (Date.now() - started));
  const report = { sent: 0, failed: 0 };
  for (;;) {
    const claimed = await claimDue(db, now());
    for (const message of claimed) {
      try {
        await transport.send({
          ...message,
          text: vault.open("email-body", message.text),
          html: vault.open("email-body", message.html),
        });
        await db
          .update(emailOutbox)
          // The body goes once delivered: its links carry tokens (credentials) nobody needs again.
          .set({ sentAt: now(), claimedUntil: null, textBody: null, htmlBody: null })
          .where(eq(emailOutbox.id, message.id));
        report.sent += 1;
      } catch (error) {
        const failedAt = now();
        const reason = String(error instanceof Error ? error.message : error).slice(0, ERROR_TEXT_LIMIT);
        const nextAttemptAt = new Date(failedAt.getTime() + retryDelayMs(message.attempts));
        await db
          .update(emailOutbox)
          .set({ claimedUntil: null, lastError: reason, nextAttemptAt })
          .where(eq(emailOutbox.id, message.id));
        report.failed += 1;
        onFailure({
          outbox_id: message.id,
          kind: message.kind,
          attempt: message.attempts,
          reason: maskLinkTokens(reason.slice(0, LOGGED_REASON_LIMIT)).replaceAll(message.to, "[recipient]"),
          next_attempt_at: nextAttemptAt.toISOString(),
        });
      }
    }
    if (claimed.length < BATCH) return report;
  }
}

// The message as stored: its bodies still sealed.
async function claimDue(db: Database, at: Date): Promise<(EmailToSend & { attempts: number })[]> {
  const o = emailOutbox;
  const rows = await db.transaction(async (tx) => {
    const due = await tx
      .select({ id: o.id })
      .from(o)
      .where(
        sql`${o.sentAt} is null and ${o.nextAttemptAt} <= ${at.toISOString()}::timestamptz
          and (${o.claimedUntil} is null or ${o.claimedUntil} < ${at.toISOString()}::timestamptz)`,
      )
      .orderBy(o.createdAt, o.id)
      .limit(BATCH)
      .for("update", { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(o)
      .set({
        claimedUntil: new Date(at.getTime() + CLAIM_MS),
        attempts: sql`${o.attempts} + 1`,
      })
      .where(
        sql`${o.id} in (${sql.join(
          due.map((row) => sql`${row.id}::uuid`),
          sql`, `,
        )})`,
      )
      .returning();
  });
  return rows
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
    .map((row) => ({
      id: row.id,
      kind: row.kind,
      to: row.toAddress,
      subject: row.subject,
      text: row.textBody ?? "",
      html: row.htmlBody ?? "",
      createdAt: row.createdAt,
      attempts: row.attempts,
    }));
}
