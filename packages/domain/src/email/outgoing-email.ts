/** One message as Allot writes it: plain text and HTML bodies of the same content. */
export interface OutgoingEmail {
  kind: string;
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

/** Where messages go: `log`, `file` or `resend` (docs/spec/operations.md §Environment, MAIL_TRANSPORT). */
export interface MailTransport {
  send(message: EmailToSend): Promise<void>;
}
