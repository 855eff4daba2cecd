import type { RouteInput } from "@allot/contract/http/route";
import type { listMyInvitationsRoute } from "@allot/contract/invitations/routes";
import { invitations } from "@allot/db/schema/invitations";
import { and, eq, gt } from "drizzle-orm";
import { inOwnedAccounts } from "../bank-accounts/find-owned-account";
import type { UseCaseContext } from "../shared/use-case-context";
import { loadInvitationViews } from "./invitation-view";

/**
 * The caller's outgoing pending invitations across the accounts the caller still owns (unexpired
 * ones only, as for an account's list).
 */
export async function listMyInvitations(
  { db, actor, now }: UseCaseContext,
  _input: RouteInput<typeof listMyInvitationsRoute>,
) {
  return loadInvitationViews(
    db,
    and(
      eq(invitations.inviterId, actor.userId),
      eq(invitations.status, "pending"),
      gt(invitations.expiresAt, now),
      inOwnedAccounts(db, invitations.bankAccountId, actor.userId),
    ),
  );
}
