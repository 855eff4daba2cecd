import type { EmailKind } from "@allot/db/schema/email-outbox";

/** One message as Allot writes it: plain text and HTML bodies of the same content. */
export interface OutgoingEmail {
  kind: EmailKind;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** A message handed to a transport: its outbox id makes a repeated send recognisable. */
export interface EmailToSend extends OutgoingEmail {
  id: string;
  createdAt: Date;
}

/** Where messages go: `log`, `file`, `resend` or `smtp` (docs/spec/operations.md §Environment, MAIL_TRANSPORT). */
export interface MailTransport {
  /** Resolves once the message is taken; rejects (and the outbox retries later) otherwise. */
  send(message: EmailToSend): Promise<void>;
  /** Ends what the transport keeps open between sends (SMTP's connection), at shutdown. */
  close?(): Promise<void>;
}
