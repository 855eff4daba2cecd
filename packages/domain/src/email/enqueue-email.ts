import type { Tx } from "@allot/db/create-database";
import { emailOutbox } from "@allot/db/schema/email-outbox";
import type { OutgoingEmail } from "./outgoing-email";

/**
 * Queues a message in the caller's transaction: it goes out after the commit (deliver-emails), and
 * not at all if the change that caused it rolls back.
 */
export async function enqueueEmail(tx: Tx, message: OutgoingEmail) {
  await tx.insert(emailOutbox).values({
    kind: message.kind,
    toAddress: message.to,
    subject: message.subject,
    textBody: message.text,
    htmlBody: message.html,
  });
}
