import type { allocationRoutes } from "@allot/contract/allocations/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { transactionAllocations } from "@allot/db/schema/transaction-allocations";
import { and, eq } from "drizzle-orm";
import { inOwnedAccounts } from "../account-access/find-owned-account";
import { NotFound } from "../shared/errors";
import type { UseCaseContext } from "../shared/use-case-context";
import { selectAllocationViews, toAllocationView } from "./allocation-view";

/** One allocation of the caller's accounts; anyone else's is 404. */
export async function getAllocation(
  { db, actor }: UseCaseContext,
  { id }: RouteInput<typeof allocationRoutes.get>,
) {
  const [row] = await selectAllocationViews(db).where(
    and(
      eq(transactionAllocations.id, id),
      inOwnedAccounts(db, transactionAllocations.bankAccountId, actor.userId),
    ),
  );
  if (!row) throw new NotFound("No allocation matches the given id.");
  return toAllocationView(row);
}
