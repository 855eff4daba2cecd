import type { Tx } from "@allot/db/create-database";
import { emailOutbox } from "@allot/db/schema/email-outbox";
import type { SecretVault } from "../secrets/secret-vault";
import type { OutgoingEmail } from "./outgoing-email";

/**
 * Queues a message in the caller's transaction: it goes out after the commit (deliver-emails), and
 * not at all if the change that caused it rolls back. Its bodies are sealed (decision 0049): their
 * links carry tokens that are credentials, and a message waits in the table while mail is down.
 */
export async function enqueueEmail(tx: Tx, message: OutgoingEmail, { vault }: { vault: SecretVault }) {
  await tx.insert(emailOutbox).values({
    kind: message.kind,
    toAddress: message.to,
    subject: message.subject,
    textBody: vault.seal("email-body", message.text),
    htmlBody: vault.seal("email-body", message.html),
  });
}
