import type { fundingOccurrenceRoutes } from "@allot/contract/funding-occurrences/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { fundingOccurrences } from "@allot/db/schema/funding-occurrences";
import { and, eq } from "drizzle-orm";
import { inOwnedAccounts } from "../account-access/find-owned-account";
import { NotFound } from "../shared/errors";
import type { UseCaseContext } from "../shared/use-case-context";
import { selectFundingOccurrences, toFundingOccurrenceView } from "./funding-occurrence-view";

/** An occurrence of one of the caller's accounts; anyone else's reads as missing (404). */
export async function getFundingOccurrence(
  { db, actor }: UseCaseContext,
  { id }: RouteInput<typeof fundingOccurrenceRoutes.get>,
) {
  const [row] = await selectFundingOccurrences(db)
    .where(
      and(eq(fundingOccurrences.id, id), inOwnedAccounts(db, fundingOccurrences.bankAccountId, actor.userId)),
    )
    .limit(1);
  if (!row) throw new NotFound("No funding occurrence matches the given id.");
  return toFundingOccurrenceView(row);
}
