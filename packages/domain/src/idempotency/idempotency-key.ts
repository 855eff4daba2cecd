import { ValidationFailed } from "../shared/errors";

/** The request header, as docs/spec/extensions.md §1 names it (and as its 400 is keyed). */
export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";

const PRINTABLE_ASCII = /^[\x21-\x7e]{1,255}$/;

/**
 * The key a request sent, or null without the header. Anything but 1 to 255 printable ASCII
 * characters (0x21–0x7E), or the header sent twice, is a 400 on the header and nothing runs.
 */
export function readIdempotencyKey(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  if (typeof header !== "string" || !PRINTABLE_ASCII.test(header))
    throw ValidationFailed.on(
      IDEMPOTENCY_KEY_HEADER,
      "Send one key of 1 to 255 printable ASCII characters (no spaces), e.g. a UUID.",
    );
  return header;
}
