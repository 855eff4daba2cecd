import { parseDateTimeText } from "@allot/contract/http/fields";
import { type AnyColumn, gte, lt, lte, type SQL } from "drizzle-orm";

const ONE_DAY_MS = 24 * 60 * 60 * 1000;
const isBareDate = (text: string) => text.length === 10;

/**
 * `from`/`to` list filters on a timestamp column, both inclusive; a bare date as `to` takes in
 * that whole (UTC) day. Texts were validated by the contract's dateTimeFilter().
 */
export function dateRange(column: AnyColumn, from?: string, to?: string): (SQL | undefined)[] {
  const start = from !== undefined ? parseDateTimeText(from) : null;
  const end = to !== undefined ? parseDateTimeText(to) : null;
  return [
    start ? gte(column, start) : undefined,
    end
      ? isBareDate(to as string)
        ? lt(column, new Date(end.getTime() + ONE_DAY_MS))
        : lte(column, end)
      : undefined,
  ];
}
