import { type AnyColumn, gte, lt, lte, type SQL } from "drizzle-orm";

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A wire date-time as a Date; a bare date is that day's UTC midnight. */
export const parseDateTime = (value: string): Date =>
  new Date(DATE_ONLY.test(value) ? `${value}T00:00:00Z` : value);

/** `date_from`: at or after the instant (a bare date: from its UTC midnight). */
export const onOrAfter = (column: AnyColumn, value: string): SQL => gte(column, parseDateTime(value));

/** `date_to`: at or before the instant; a bare date includes the whole of that (UTC) day. */
export const onOrBefore = (column: AnyColumn, value: string): SQL =>
  DATE_ONLY.test(value)
    ? lt(column, new Date(parseDateTime(value).getTime() + DAY_MS))
    : lte(column, parseDateTime(value));
