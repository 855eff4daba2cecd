import { readDateTimeText } from "@allot/contract/http/fields";
import type { Database, Tx } from "@allot/db/create-database";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { type AnyColumn, and, eq, gte, inArray, lt, lte, or, type SQL } from "drizzle-orm";
import { ownedBy } from "../account-access/find-owned-account";
import { firstOwnerTimeZone } from "./account-time-zone";
import { instantOfText, isLocalText } from "./instant-of-text";
import { startOfNextLocalDay } from "./local-days";

/** `from`/`to` filters, both inclusive, on an instant column of rows in one time zone's calendar. */
function rangeInZone(column: AnyColumn, timeZone: string, from?: string, to?: string) {
  const end = to !== undefined ? readDateTimeText(to) : null;
  return and(
    from !== undefined ? gte(column, instantOfText(from, timeZone)) : undefined,
    to === undefined
      ? undefined
      : end?.bare
        ? lt(column, startOfNextLocalDay(end.day, timeZone))
        : lte(column, instantOfText(to, timeZone)),
  );
}

/** Date filters of a list over the caller's accounts, each row read in its account's calendar. */
export interface AccountDayRanges {
  /**
   * `from`/`to` on an instant column, both inclusive: a bare date is that local day of the row's
   * account (as `to`, the whole of it), a time without offset that wall-clock time there.
   */
  range(column: AnyColumn, accountColumn: AnyColumn, from?: string, to?: string): SQL | undefined;
}

/**
 * The calendars of the caller's accounts (or of one), read only when a filter text needs a time
 * zone: most callers own accounts in one zone, which makes each range one plain comparison;
 * accounts in several zones get one comparison per zone.
 */
export async function accountDayRanges(
  db: Database | Tx,
  userId: number,
  bankAccount: string | undefined,
  texts: (string | undefined)[],
): Promise<AccountDayRanges> {
  const accountsByZone = new Map<string, string[]>();
  if (texts.some(isLocalText)) {
    const rows = await db
      .select({ id: bankAccounts.id, timeZone: firstOwnerTimeZone })
      .from(bankAccounts)
      .where(and(ownedBy(db, userId), bankAccount ? eq(bankAccounts.id, bankAccount) : undefined));
    for (const { id, timeZone } of rows) {
      const zone = timeZone ?? "UTC";
      accountsByZone.set(zone, [...(accountsByZone.get(zone) ?? []), id]);
    }
  }
  return {
    range(column, accountColumn, from, to) {
      if (from === undefined && to === undefined) return undefined;
      if (accountsByZone.size <= 1)
        return rangeInZone(column, [...accountsByZone.keys()][0] ?? "UTC", from, to);
      return or(
        ...[...accountsByZone].map(([zone, ids]) =>
          and(inArray(accountColumn, ids), rangeInZone(column, zone, from, to)),
        ),
      );
    },
  };
}
