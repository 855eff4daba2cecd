import { rootCertificates } from "node:tls";
import type { MailTransport } from "@allot/domain/email/outgoing-email";
import nodemailer from "nodemailer";

/**
 * How long each step may take. The outbox sends one message after another and holds its claim on
 * a batch for five minutes (deliver-emails.ts), so a dead or stalling server must fail a send well
 * before that: nodemailer's own defaults (2 minutes to connect, 10 of socket silence) would not.
 */
interface SmtpTimeouts {
  connectionMs: number;
  greetingMs: number;
  socketMs: number;
  /** The whole send, for a server that trickles its replies (no socket timeout notices that). */
  sendMs: number;
  /**
   * After a failure of the server rather than of one message (unreachable, silent, TLS, login),
   * sends fail at once for this long: a backlog of fifty then costs one timeout, not fifty, and
   * the outbox (with its other work in the same loop) moves on; each message is retried later.
   */
  pauseAfterServerFailureMs: number;
}

const DEFAULT_TIMEOUTS: SmtpTimeouts = {
  connectionMs: 10_000,
  greetingMs: 10_000,
  socketMs: 30_000,
  sendMs: 60_000,
  pauseAfterServerFailureMs: 30_000,
};

// nodemailer's codes for a failure of the connection or the session, not of one message's
// envelope or content (EENVELOPE, EMESSAGE), plus 421: the server closing the session.
const SERVER_FAILURES = new Set([
  "ECONNECTION",
  "ESOCKET",
  "ETIMEDOUT",
  "EDNS",
  "ETLS",
  "EAUTH",
  "EABORT",
  "EPROXY",
]);

interface SmtpSettings {
  /** `smtp://[user:pass@]host[:port]` (STARTTLS when offered) or `smtps://…` (TLS from the start). */
  url: string;
  from: string;
  /** PEM certificate(s) trusted besides the public roots (SMTP_TLS_CA): a private CA, a self-signed server. */
  ca?: string;
  timeouts?: Partial<SmtpTimeouts>;
}

/**
 * `smtp`: through an SMTP server, over one pool of connections per process (the outbox sends one
 * message after another, so it holds one connection, reused while messages keep coming). A refusal,
 * an unreachable server or a timeout rejects `send`, and the outbox tries again later. The outbox
 * id is the Message-ID, so a message sent again after a crash between the send and its mark is
 * recognisable as the same one.
 */
export function smtpTransport(settings: SmtpSettings): MailTransport & { close(): Promise<void> } {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...settings.timeouts };
  const redact = redactorFor(settings.url);
  const domain = addressDomain(settings.from);
  const transporter = nodemailer.createTransport({
    pool: true,
    maxConnections: 1,
    url: settings.url,
    connectionTimeout: timeouts.connectionMs,
    greetingTimeout: timeouts.greetingMs,
    socketTimeout: timeouts.socketMs,
    dnsTimeout: timeouts.connectionMs,
    logger: false,
    debug: false,
    ...(settings.ca ? { tls: { ca: [...rootCertificates, settings.ca] } } : {}),
  });
  let pausedUntil = 0;
  return {
    async send(message) {
      if (Date.now() < pausedUntil)
        throw new Error(
          `SMTP send failed: the server failed a moment ago; not tried again before ${new Date(pausedUntil).toISOString()}`,
        );
      try {
        await transporter.sendMail({
          from: settings.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          messageId: `<allot-email.${message.id}@${domain}>`,
          signal: AbortSignal.timeout(timeouts.sendMs),
        });
      } catch (error) {
        if (isServerFailure(error)) pausedUntil = Date.now() + timeouts.pauseAfterServerFailureMs;
        // A new error, not the original as its cause: nodemailer's carries the server's replies and
        // commands, which a log or the outbox's last_error must not receive with a password in them.
        throw new Error(`SMTP send failed: ${redact(describe(error))}`);
      }
    },
    async close() {
      transporter.close();
    },
  };
}

function isServerFailure(error: unknown): boolean {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  return (typeof code === "string" && SERVER_FAILURES.has(code)) || responseCode === 421;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && !error.message.includes(code)
    ? `${code}: ${error.message}`
    : error.message;
}

/**
 * Masks the URL's password in every form an error could carry it: as written in the URL
 * (percent-encoded), decoded, and in base64 as AUTH PLAIN and AUTH LOGIN send it, should a server
 * echo what it was given.
 */
function redactorFor(url: string): (text: string) => string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL we can read (the environment refuses these first): say nothing of what it held.
    return () => "the SMTP URL could not be read";
  }
  const user = safelyDecoded(parsed.username);
  const password = safelyDecoded(parsed.password);
  if (!password) return (text) => text;
  const base64 = (value: string) => Buffer.from(value, "utf8").toString("base64");
  const forms = [
    parsed.password,
    password,
    encodeURIComponent(password),
    base64(password),
    base64(`\u0000${user}\u0000${password}`),
  ].sort((a, b) => b.length - a.length);
  return (text) => forms.reduce((masked, form) => masked.split(form).join("***"), text);
}

// As nodemailer reads the URL's credentials: a malformed escape stays as written.
function safelyDecoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The domain of the sender's address (`Allot <noreply@example.com>` → `example.com`), for Message-IDs. */
function addressDomain(from: string): string {
  return /@([^\s<>@]+)>?\s*$/.exec(from)?.[1] ?? "allot.localhost";
}
