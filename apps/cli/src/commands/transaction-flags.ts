import { DECIMAL_PATTERN, isUuid, parseDateTimeText } from "@allot/contract/http/fields";
import { UsageError } from "../output";

/*
 * Flag values checked before any request, so a typo exits 2 naming the flag instead of reaching
 * the server as a 400. The contract's own readers decide what is valid: client and server agree.
 */

/** A transaction id argument, lower-cased as the API stores it. */
export function transactionId(value: string): string {
  const id = value.trim();
  if (!isUuid(id))
    throw new UsageError(
      `'${value}' is not a transaction id: run \`allot transactions list\` and copy one from its ID column.`,
      "invalid_transaction_id",
    );
  return id.toLowerCase();
}

/** A date (`2026-01-31`) or ISO date-time, as the user wrote it. */
export function dateFlag(flag: string, value: string): string {
  const text = value.trim();
  if (!parseDateTimeText(text))
    throw new UsageError(
      `${flag} must be a date like 2026-01-31 (or an ISO date-time), not '${value}'.`,
      "invalid_date",
    );
  return text;
}

/** A signed amount with at most two decimals (`-12.50`), never read through a float. */
export function amountFlag(flag: string, value: string): string {
  const text = value.trim();
  if (!DECIMAL_PATTERN.test(text))
    throw new UsageError(
      `${flag} must be an amount like -12.50 (up to 12 digits and 2 decimals), not '${value}'.`,
      "invalid_amount",
    );
  return text;
}
