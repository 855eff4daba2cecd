import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { EmailToSend, MailTransport } from "./outgoing-email";

/** What a message looks like on disk and in the log (operations.md, MAIL_DIR). */
const recordOf = (message: EmailToSend, from: string) => ({
  to: message.to,
  from,
  subject: message.subject,
  text: message.text,
  html: message.html,
  kind: message.kind,
  created_at: message.createdAt.toISOString(),
});

/** `log`: one JSON line per message on the given writer (stdout by default). */
export function logTransport(
  from: string,
  write: (line: string) => void = (line) => process.stdout.write(line),
): MailTransport {
  return {
    async send(message) {
      write(`${JSON.stringify({ mail: recordOf(message, from) })}\n`);
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
