import type { Database, Tx } from "@allot/db/create-database";
import { bankAccountOwners, bankAccounts } from "@allot/db/schema/bank-accounts";
import { type AnyColumn, and, eq, inArray, type Placeholder } from "drizzle-orm";
import type { Actor } from "../shared/actor";
import { NotFound, ValidationFailed } from "../shared/errors";

export type BankAccountRow = typeof bankAccounts.$inferSelect;

/** An account that is not there, or not the caller's: both read the same (404). */
export const accountNotFound = () => new NotFound("No bank account matches the given id.");

/**
 * Condition on a `bank_account_id` column (or `bank_accounts.id`): one of the user's accounts. The
 * user may be a placeholder, for statements prepared once.
 */
export const inOwnedAccounts = (db: Database | Tx, column: AnyColumn, userId: number | Placeholder) =>
  inArray(
    column,
    db
      .select({ id: bankAccountOwners.bankAccountId })
      .from(bankAccountOwners)
      .where(eq(bankAccountOwners.userId, userId)),
  );

/** Condition on `bank_accounts`: the user is one of the account's owners. */
export const ownedBy = (db: Database | Tx, userId: number | Placeholder) =>
  inOwnedAccounts(db, bankAccounts.id, userId);

/**
 * The account if the actor owns it. Staff status does not bypass ownership, and an account of
 * someone else is reported exactly like one that does not exist (404). It only reads: a write
 * locks and numbers the account through writeAccount (write-account.ts).
 */
export async function findOwnedAccount(
  db: Database | Tx,
  actor: Pick<Actor, "userId">,
  id: string,
): Promise<BankAccountRow> {
  const [row] = await db
    .select()
    .from(bankAccounts)
    .where(and(eq(bankAccounts.id, id), ownedBy(db, actor.userId)))
    .limit(1);
  if (!row) throw accountNotFound();
  return row;
}

/**
 * The 400 for a request field naming an account the caller cannot use (unknown, or not theirs):
 * both read the same, so a caller learns nothing about other people's accounts.
 */
export const unknownAccount = (field: string, id: string) =>
  ValidationFailed.on(field, `Invalid pk "${id}" - object does not exist.`);

/** Like findOwnedAccount, but a miss is a 400 on the request field that named the account. */
export async function findOwnedAccountFor(
  db: Database | Tx,
  actor: Pick<Actor, "userId">,
  field: string,
  id: string,
): Promise<BankAccountRow> {
  try {
    return await findOwnedAccount(db, actor, id);
  } catch (error) {
    if (error instanceof NotFound) throw unknownAccount(field, id);
    throw error;
  }
}
