import type { RouteInput } from "@allot/contract/http/route";
import type { internalTransactionRoutes } from "@allot/contract/internal-transactions/routes";
import { internalTransactions } from "@allot/db/schema/internal-transactions";
import { and, eq } from "drizzle-orm";
import { ownedBy } from "../account-access/find-owned-account";
import { NotFound } from "../shared/errors";
import type { UseCaseContext } from "../shared/use-case-context";
import { selectInternalTransactions, toInternalTransactionView } from "./internal-transaction-view";

/** A transfer of one of the caller's accounts; anyone else's reads as missing (404). */
export async function getInternalTransaction(
  { db, actor }: UseCaseContext,
  { id }: RouteInput<typeof internalTransactionRoutes.get>,
) {
  const [found] = await selectInternalTransactions(db)
    .where(and(eq(internalTransactions.id, id), ownedBy(db, actor.userId)))
    .limit(1);
  if (!found) throw new NotFound("No internal transaction matches the given id.");
  return toInternalTransactionView(found.row, found.currency);
}
