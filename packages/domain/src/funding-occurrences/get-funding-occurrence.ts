import type { Database } from "@allot/db/create-database";
import { fundingOccurrences } from "@allot/db/schema/funding-occurrences";
import { and, eq } from "drizzle-orm";
import { inOwnedAccounts } from "../bank-accounts/find-owned-account";
import type { Actor } from "../shared/actor";
import { NotFound } from "../shared/errors";
import { selectFundingOccurrences, toFundingOccurrenceView } from "./funding-occurrence-view";

/** An occurrence of one of the caller's accounts; anyone else's reads as missing (404). */
export async function getFundingOccurrence(db: Database, actor: Actor, id: string) {
  const [row] = await selectFundingOccurrences(db)
    .where(
      and(eq(fundingOccurrences.id, id), inOwnedAccounts(db, fundingOccurrences.bankAccountId, actor.userId)),
    )
    .limit(1);
  if (!row) throw new NotFound("No funding occurrence matches the given id.");
  return toFundingOccurrenceView(row);
}
