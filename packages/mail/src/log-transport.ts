import { maskLinkTokens } from "@allot/domain/email/link-tokens";
import type { MailTransport } from "@allot/domain/email/outgoing-email";
import { recordOf } from "./mail-record";

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
