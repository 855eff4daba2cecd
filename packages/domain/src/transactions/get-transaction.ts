import type { Database } from "@allot/db/create-database";
import { transactions } from "@allot/db/schema/transactions";
import { and, eq } from "drizzle-orm";
import { inOwnedAccounts } from "../bank-accounts/find-owned-account";
import type { Actor } from "../shared/actor";
import { NotFound } from "../shared/errors";
import { selectTransactionViews, toTransactionViews } from "./transaction-view";

/** One transaction of the caller's accounts, allocations embedded; anyone else's is 404. */
export async function getTransaction(db: Database, actor: Actor, id: string) {
  const rows = await selectTransactionViews(db).where(
    and(eq(transactions.id, id), inOwnedAccounts(db, transactions.bankAccountId, actor.userId)),
  );
  const [view] = await toTransactionViews(db, rows);
  if (!view) throw new NotFound("No transaction matches the given id.");
  return view;
}
