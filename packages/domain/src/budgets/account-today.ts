import type { Tx } from "@allot/db/create-database";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { eq, sql } from "drizzle-orm";

// Making an Intl.DateTimeFormat costs about a quarter of a millisecond, using one a microsecond:
// an import reads thousands of dates, so each zone's formatter is made once.
const formatters = new Map<string, Intl.DateTimeFormat | null>();
const formatterFor = (key: string, make: () => Intl.DateTimeFormat): Intl.DateTimeFormat | null => {
  let format = formatters.get(key);
  if (format === undefined) {
    try {
      format = make();
    } catch {
      format = null; // an unknown zone
    }
    formatters.set(key, format);
  }
  return format;
};

const dayFormat = (timeZone: string) =>
  formatterFor(
    `day ${timeZone}`,
    () => new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }),
  );

/** YYYY-MM-DD of an instant in a time zone (UTC when the zone is unknown). */
export function localDate(at: Date, timeZone: string): string {
  return (dayFormat(timeZone) ?? (dayFormat("UTC") as Intl.DateTimeFormat)).format(at);
}

/**
 * The time zone of an account's first owner (the oldest ownership), for a query on bank_accounts:
 * the account's calendar.
 */
export const firstOwnerTimeZone = sql<string | null>`(
  select u.timezone from bank_account_owners o join users u on u.id = o.user_id
  where o.bank_account_id = bank_accounts.id
  order by o.created_at, o.user_id limit 1)`;

/** The time zone of the account's first owner (UTC for an account without owners). */
export async function accountTimeZone(tx: Tx, accountId: string): Promise<string> {
  const [row] = await tx
    .select({ timeZone: firstOwnerTimeZone })
    .from(bankAccounts)
    .where(eq(bankAccounts.id, accountId));
  return row?.timeZone ?? "UTC";
}

/**
 * Today in the time zone of the account's first owner: the calendar the funding engine runs the
 * account on, so schedules anchored today fire from this local date.
 */
export async function accountToday(tx: Tx, accountId: string, now = new Date()): Promise<string> {
  return localDate(now, await accountTimeZone(tx, accountId));
}

// Imports and funding runs ask for the same few hundred days over and over.
const dayStarts = new Map<string, number>();
const DAY_STARTS_LIMIT = 10_000;

/** The instant a local date (YYYY-MM-DD) begins in a time zone (UTC when the zone is unknown). */
export function startOfLocalDay(date: string, timeZone: string): Date {
  const key = `${timeZone} ${date}`;
  let start = dayStarts.get(key);
  if (start === undefined) {
    start = computeStartOfLocalDay(date, timeZone);
    if (dayStarts.size >= DAY_STARTS_LIMIT) dayStarts.clear();
    dayStarts.set(key, start);
  }
  return new Date(start);
}

function computeStartOfLocalDay(date: string, timeZone: string): number {
  const midnightUtc = Date.parse(`${date}T00:00:00.000Z`);
  const format = formatterFor(
    `clock ${timeZone}`,
    () =>
      new Intl.DateTimeFormat("en-US", {
        timeZone,
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
      }),
  );
  if (!format) return midnightUtc;
  // The zone's offset at an instant: its wall-clock time read as UTC, minus the instant.
  const offsetAt = (at: number) => {
    const parts = format.formatToParts(at);
    const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
    return (
      Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"), part("second")) -
      at
    );
  };
  // Second pass: the offset at the local midnight itself, which differs across a DST change.
  const guess = midnightUtc - offsetAt(midnightUtc);
  return midnightUtc - offsetAt(guess);
}
