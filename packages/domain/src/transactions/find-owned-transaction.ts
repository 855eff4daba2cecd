import type { Database, Tx } from "@allot/db/create-database";
import { transactions } from "@allot/db/schema/transactions";
import { and, eq } from "drizzle-orm";
import { type BankAccountRow, inOwnedAccounts } from "../account-access/find-owned-account";
import { type AccountAct, writeAccount } from "../account-access/write-account";
import type { Actor } from "../shared/actor";
import { NotFound } from "../shared/errors";
import type { UseCaseContext } from "../shared/use-case-context";
import type { TransactionRow } from "./transaction-view";

const notFound = () => new NotFound("No transaction matches the given id.");

/** The transaction if it is in one of the actor's accounts; anyone else's is 404, like a missing one. */
export async function findOwnedTransaction(
  db: Database | Tx,
  actor: Pick<Actor, "userId">,
  id: string,
): Promise<TransactionRow> {
  const [row] = await db
    .select()
    .from(transactions)
    .where(and(eq(transactions.id, id), inOwnedAccounts(db, transactions.bankAccountId, actor.userId)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/**
 * A write to a transaction (writeAccount): the transaction is found among the actor's, its account
 * locked and numbered, then the transaction row locked and read again, so a concurrent change (a
 * second resolve, a delete) is seen here rather than applied twice.
 */
export async function writeOwnedTransaction<R>(
  ctx: UseCaseContext,
  id: string,
  body: (tx: Tx, rows: { account: BankAccountRow; transaction: TransactionRow }) => Promise<AccountAct<R>>,
): Promise<R> {
  const { db, actor } = ctx;
  const found = await findOwnedTransaction(db, actor, id);
  return writeAccount(
    ctx,
    { accountId: found.bankAccountId, owner: actor, missing: notFound },
    async (tx, account) => {
      const [transaction] = await tx.select().from(transactions).where(eq(transactions.id, id)).for("update");
      if (!transaction || transaction.bankAccountId !== account.id) throw notFound();
      return body(tx, { account, transaction });
    },
  );
}
