import type { activityRoutes } from "@allot/contract/activity/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { accountEvents } from "@allot/db/schema/account-events";
import { bankAccountOwners } from "@allot/db/schema/bank-accounts";
import { invitations } from "@allot/db/schema/invitations";
import { and, count, desc, eq, inArray, notLike, or, type SQL, sql } from "drizzle-orm";
import { findOwnedAccount } from "../account-access/find-owned-account";
import { accountDayRanges } from "../calendar/account-day-range";
import { toActivityEventView } from "../events/activity-event-view";
import { paginate } from "../shared/pagination";
import type { UseCaseContext } from "../shared/use-case-context";

const e = accountEvents;

/**
 * GET /bank-accounts/{id}/activity/: the account's events, newest first, to every co-owner (404 to
 * anyone else). Date-time bounds are inclusive and read in the account's calendar, like every
 * other date filter; `actor` matches the username the event was made under, in any case. A co-owner
 * sees the account's whole money history, but not the invitations of others from before they
 * joined (decision 0053).
 */
export async function listActivity(
  { db, actor }: UseCaseContext,
  query: RouteInput<typeof activityRoutes.list>,
) {
  const account = await findOwnedAccount(db, actor, query.id);
  const days = await accountDayRanges(db, actor.userId, account.id, [
    query.occurred_after,
    query.occurred_before,
  ]);
  const where = and(
    eq(e.bankAccountId, account.id),
    query.type?.length ? inArray(e.type, query.type) : undefined,
    query.actor !== undefined ? sql`lower(${e.actorUsername}) = lower(${query.actor})` : undefined,
    days.range(e.occurredAt, e.bankAccountId, query.occurred_after, query.occurred_before),
    partyTo(account.id, actor.userId),
  );
  return paginate(
    query,
    async () => (await db.select({ n: count() }).from(e).where(where))[0]?.n ?? 0,
    async ({ offset, limit }) =>
      (await db.select().from(e).where(where).orderBy(desc(e.seq)).offset(offset).limit(limit)).map(
        toActivityEventView,
      ),
  );
}

/**
 * The events a co-owner was party to or that belong to the money history: everything since they
 * joined, everything but invitations before that, and the invitations sent to them. Others'
 * invitations from before (who was asked, who declined) are personal data they never shared in.
 */
function partyTo(accountId: string, userId: number): SQL | undefined {
  const joinedAt = sql`(select ${bankAccountOwners.createdAt} from ${bankAccountOwners}
    where ${bankAccountOwners.bankAccountId} = ${accountId} and ${bankAccountOwners.userId} = ${userId})`;
  // invitation.created names its invitation `id`; the answers name it `invitation`.
  const invitationId = sql`coalesce(${e.data}->>'invitation', ${e.data}->>'id')`;
  const theirs = sql`${invitationId} in (select ${invitations.id}::text from ${invitations}
    where ${invitations.bankAccountId} = ${accountId} and ${invitations.inviteeId} = ${userId})`;
  return or(sql`${e.occurredAt} >= ${joinedAt}`, notLike(e.type, "invitation.%"), theirs);
}
