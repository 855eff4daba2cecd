import { ITEM_DESCRIPTION_MAX, WHAT_IF_MAX } from "@allot/contract/forecasts/forecast";
import { DECIMAL_PATTERN, dateField } from "@allot/contract/http/fields";
import type { ForecastItem } from "@allot/sdk/resource-types";
import { UsageError } from "../output";

/** How an --item reads, for the help and for each message about one. */
export const ITEM_SHAPE = '"DATE AMOUNT DESCRIPTION", e.g. "2027-01-15 -1200.00 Car repair"';

/** The value of one --item: the day, the signed amount, then the rest of the words. */
const ITEM = /^\s*(\S+)\s+(\S+)\s+(\S.*?)\s*$/s;

const wrong = (text: string, what: string) =>
  new UsageError(
    `--item '${text}': ${what}. Give ${ITEM_SHAPE} (AMOUNT signed: negative is money out).`,
    "invalid_item",
  );

/**
 * One `--item "DATE AMOUNT DESCRIPTION"` as the what-if the API takes, checked before anything is
 * sent: the date as the contract reads one, the amount as a decimal string with up to two decimals
 * (a leading + allowed, never read through a float), the description within the contract's length.
 */
export function forecastItem(text: string): ForecastItem {
  const match = ITEM.exec(text);
  if (!match) throw wrong(text, "it needs a date, an amount and a description");
  const [, date = "", signed = "", description = ""] = match;
  if (!dateField().safeParse(date).success) throw wrong(text, `'${date}' is not a date, YYYY-MM-DD`);
  const amount = signed.replace(/^\+/, "");
  if (!DECIMAL_PATTERN.test(amount) || signed.startsWith("+-"))
    throw wrong(text, `'${signed}' is not an amount like -1200.00 (up to 12 digits and 2 decimals)`);
  if (description.length > ITEM_DESCRIPTION_MAX)
    throw wrong(text, `the description is longer than ${ITEM_DESCRIPTION_MAX} characters`);
  return { date, amount, description };
}

/** Every --item given, in order; more than the API takes is a usage error too. */
export function forecastItems(texts: readonly string[]): ForecastItem[] {
  if (texts.length > WHAT_IF_MAX)
    throw new UsageError(`At most ${WHAT_IF_MAX} --item flags, not ${texts.length}.`, "invalid_item");
  return texts.map(forecastItem);
}
