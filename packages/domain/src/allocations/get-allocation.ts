import type { Database } from "@allot/db/create-database";
import { transactionAllocations } from "@allot/db/schema/transaction-allocations";
import { and, eq } from "drizzle-orm";
import { inOwnedAccounts } from "../bank-accounts/find-owned-account";
import type { Actor } from "../shared/actor";
import { NotFound } from "../shared/errors";
import { selectAllocationViews, toAllocationView } from "./allocation-view";

/** One allocation of the caller's accounts; anyone else's is 404. */
export async function getAllocation(db: Database, actor: Actor, id: string) {
  const [row] = await selectAllocationViews(db).where(
    and(
      eq(transactionAllocations.id, id),
      inOwnedAccounts(db, transactionAllocations.bankAccountId, actor.userId),
    ),
  );
  if (!row) throw new NotFound("No allocation matches the given id.");
  return toAllocationView(row);
}
