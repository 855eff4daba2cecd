import type { Tx } from "@allot/db/create-database";
import { bankAccountOwners } from "@allot/db/schema/bank-accounts";
import { users } from "@allot/db/schema/users";
import { asc, eq } from "drizzle-orm";

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
 * Today in the time zone of the account's first owner (the oldest ownership): the calendar the
 * funding engine runs the account on, so schedules anchored today fire from this local date.
 */
export async function accountToday(tx: Tx, accountId: string, now = new Date()): Promise<string> {
  const [owner] = await tx
    .select({ timezone: users.timezone })
    .from(bankAccountOwners)
    .innerJoin(users, eq(users.id, bankAccountOwners.userId))
    .where(eq(bankAccountOwners.bankAccountId, accountId))
    .orderBy(asc(bankAccountOwners.createdAt), asc(bankAccountOwners.userId))
    .limit(1);
  return localDate(now, owner?.timezone ?? "UTC");
}
