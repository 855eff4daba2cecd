import type { RouteInput } from "@allot/contract/http/route";
import type { transactionRoutes } from "@allot/contract/transactions/routes";
import { transactions } from "@allot/db/schema/transactions";
import { and, eq } from "drizzle-orm";
import { inOwnedAccounts } from "../account-access/find-owned-account";
import { NotFound } from "../shared/errors";
import type { UseCaseContext } from "../shared/use-case-context";
import { selectTransactionViews, toTransactionViews } from "./transaction-view";

/** One transaction of the caller's accounts, allocations embedded; anyone else's is 404. */
export async function getTransaction(
  { db, actor, services }: UseCaseContext<"publicBaseUrl">,
  { id }: RouteInput<typeof transactionRoutes.get>,
) {
  const rows = await selectTransactionViews(db).where(
    and(eq(transactions.id, id), inOwnedAccounts(db, transactions.bankAccountId, actor.userId)),
  );
  const [view] = await toTransactionViews(db, rows, services);
  if (!view) throw new NotFound("No transaction matches the given id.");
  return view;
}
