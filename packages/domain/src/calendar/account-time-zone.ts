import type { Tx } from "@allot/db/create-database";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { eq, sql } from "drizzle-orm";
import { localDate } from "./local-days";

/**
 * The time zone of an account's first owner, for a query on bank_accounts: the account's calendar.
 * "First" is the first of the account's `owners` list (oldest ownership, then username), so the
 * account's `timezone` names the zone every day of it is read in.
 */
export const firstOwnerTimeZone = sql<string | null>`(
  select u.timezone from bank_account_owners o join users u on u.id = o.user_id
  where o.bank_account_id = bank_accounts.id
  order by o.created_at, u.username limit 1)`;

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
