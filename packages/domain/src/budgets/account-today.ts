import type { Tx } from "@allot/db/create-database";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { eq, sql } from "drizzle-orm";

/** YYYY-MM-DD of an instant in a time zone (UTC when the zone is unknown). */
export function localDate(at: Date, timeZone: string): string {
  const format = (zone: string) =>
    new Intl.DateTimeFormat("en-CA", {
      timeZone: zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    }).format(at);
  try {
    return format(timeZone);
  } catch {
    return format("UTC");
  }
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

/** The instant a local date (YYYY-MM-DD) begins in a time zone (UTC when the zone is unknown). */
export function startOfLocalDay(date: string, timeZone: string): Date {
  const midnightUtc = Date.parse(`${date}T00:00:00.000Z`);
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
  } catch {
    return new Date(midnightUtc);
  }
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
  return new Date(midnightUtc - offsetAt(guess));
}
