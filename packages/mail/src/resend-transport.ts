import type { MailTransport } from "@allot/domain/email/outgoing-email";
import { Resend } from "resend";

/**
 * `resend`: through Resend's API. The outbox id is the idempotency key, so a message re-sent after
 * a crash between the send and its mark is not delivered twice (Resend keeps keys for 24 hours).
 */
export function resendTransport(apiKey: string, from: string, baseUrl?: string): MailTransport {
  const resend = new Resend(apiKey, baseUrl ? { baseUrl } : undefined);
  return {
    async send(message) {
      const { error } = await resend.emails.send(
        { from, to: message.to, subject: message.subject, text: message.text, html: message.html },
        { idempotencyKey: `allot-email/${message.id}` },
      );
      // The SDK answers errors instead of throwing them: throw, so the outbox retries.
      if (error) throw new Error(`Resend refused the message: ${error.name}: ${error.message}`);
    },
  };
}
