import type { EmailToSend } from "@allot/domain/email/outgoing-email";

/** What a message looks like on disk and in the log (docs/spec/operations.md §Environment, MAIL_DIR). */
export const recordOf = (message: EmailToSend, from: string) => ({
  to: message.to,
  from,
  subject: message.subject,
  text: message.text,
  html: message.html,
  kind: message.kind,
  created_at: message.createdAt.toISOString(),
});
