import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { MailTransport } from "@allot/domain/email/outgoing-email";
import { recordOf } from "./mail-record";

/** Messages hold link secrets (an invitation, a password reset): only the server's user reads them. */
const FOLDER_MODE = 0o700;
const FILE_MODE = 0o600;

/**
 * `file` (the default): one JSON file per message in `directory`, named by creation time and
 * outbox id so the names sort in sending order and a repeated send rewrites the same file instead
 * of adding one. Written to a temporary name and renamed, so a reader (`allot admin mail`) never
 * sees half a message. The folder is made 0700 and each file 0600.
 */
export function fileTransport(directory: string, from: string): MailTransport {
  return {
    async send(message) {
      await mkdir(directory, { recursive: true, mode: FOLDER_MODE });
      const stamp = message.createdAt.toISOString().replace(/[:.]/g, "-");
      const name = join(directory, `${stamp}-${message.id}.json`);
      const temporary = `${name}.tmp`;
      await writeFile(temporary, `${JSON.stringify(recordOf(message, from), null, 2)}\n`, {
        mode: FILE_MODE,
      });
      await rename(temporary, name);
    },
  };
}
