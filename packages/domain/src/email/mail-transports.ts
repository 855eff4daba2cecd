import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Resend } from "resend";
import { maskLinkTokens } from "./link-tokens";
import type { EmailToSend, MailTransport } from "./outgoing-email";

/** What a message looks like on disk and in the log (docs/spec/operations.md §Environment, MAIL_DIR). */
const recordOf = (message: EmailToSend, from: string) => ({
  to: message.to,
  from,
  subject: message.subject,
  text: message.text,
  html: message.html,
  kind: message.kind,
  created_at: message.createdAt.toISOString(),
});

/**
 * `log`: one JSON line per message on the given writer (stdout by default). The links' tokens are
 * masked, since logs are kept and shared; `bodies` (MAIL_LOG_BODIES, local development) prints the
 * message whole, links working.
 */
export function logTransport(
  from: string,
  { bodies = false }: { bodies?: boolean } = {},
  write: (line: string) => void = (line) => process.stdout.write(line),
): MailTransport {
  return {
    async send(message) {
      const record = recordOf(message, from);
      const shown = bodies
        ? record
        : { ...record, text: maskLinkTokens(record.text), html: maskLinkTokens(record.html) };
      write(`${JSON.stringify({ mail: shown })}\n`);
    },
  };
}

/**
 * `file`: one JSON file per message in `directory`, named by creation time and outbox id so the
 * names sort in sending order and a repeated send rewrites the same file instead of adding one.
 * Written to a temporary name and renamed, so a reader never sees half a message.
 */
export function fileTransport(directory: string, from: string): MailTransport {
  return {
    async send(message) {
      await mkdir(directory, { recursive: true });
      const stamp = message.createdAt.toISOString().replace(/[:.]/g, "-");
      const name = join(directory, `${stamp}-${message.id}.json`);
      const temporary = `${name}.tmp`;
      await writeFile(temporary, `${JSON.stringify(recordOf(message, from), null, 2)}\n`);
      await rename(temporary, name);
    },
  };
}

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

/** Where emails go (docs/spec/operations.md, MAIL_TRANSPORT): printed, written one file each, or sent by Resend. */
export type MailSettings =
  | { transport: "log"; from: string; logBodies: boolean }
  | { transport: "file"; from: string; directory: string }
  | { transport: "resend"; from: string; apiKey: string };

export function mailTransportFor(settings: MailSettings): MailTransport {
  switch (settings.transport) {
    case "log":
      return logTransport(settings.from, { bodies: settings.logBodies });
    case "file":
      return fileTransport(settings.directory, settings.from);
    case "resend":
      return resendTransport(settings.apiKey, settings.from);
  }
}
