import type { Tx } from "@allot/db/create-database";
import type { NotificationKind } from "@allot/db/schema/notifications";
import { sql } from "drizzle-orm";

/**
 * Records a notification for every owner of the account, in the caller's transaction: it exists
 * exactly when the change it reports was committed.
 */
export async function notifyAccountOwners(
  tx: Tx,
  accountId: string,
  kind: NotificationKind,
  payload: Record<string, unknown>,
) {
  await tx.execute(sql`
    insert into notifications (user_id, kind, bank_account_id, payload)
    select o.user_id, ${kind}, o.bank_account_id, ${JSON.stringify(payload)}::jsonb
    from bank_account_owners o where o.bank_account_id = ${accountId}`);
}

/** Records a notification for one user, in the caller's transaction. */
export async function notifyUser(
  tx: Tx,
  userId: number,
  kind: NotificationKind,
  payload: Record<string, unknown>,
  bankAccountId: string | null = null,
) {
  await tx.execute(sql`
    insert into notifications (user_id, kind, bank_account_id, payload)
    values (${userId}, ${kind}, ${bankAccountId}::uuid, ${JSON.stringify(payload)}::jsonb)`);
}
