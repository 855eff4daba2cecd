import type { RouteInput } from "@allot/contract/http/route";
import type { invitationRoutes } from "@allot/contract/invitations/routes";
import { invitations } from "@allot/db/schema/invitations";
import { and, eq } from "drizzle-orm";
import { inOwnedAccounts } from "../account-access/find-owned-account";
import type { UseCaseContext } from "../shared/use-case-context";
import { stillPending } from "./expire-invitations";
import { loadInvitationViews } from "./invitation-view";

/**
 * The caller's outgoing pending invitations across the accounts the caller still owns (unexpired
 * ones only, as for an account's list).
 */
export async function listMyInvitations(
  { db, actor, now }: UseCaseContext,
  _input: RouteInput<typeof invitationRoutes.listMine>,
) {
  return loadInvitationViews(
    db,
    and(
      eq(invitations.inviterId, actor.userId),
      stillPending(now),
      inOwnedAccounts(db, invitations.bankAccountId, actor.userId),
    ),
  );
}
