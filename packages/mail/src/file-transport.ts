import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { MailTransport } from "@allot/domain/email/outgoing-email";
import { recordOf } from "./mail-record";

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
