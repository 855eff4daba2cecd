import type { Database } from "@allot/db/create-database";
import { invitations } from "@allot/db/schema/invitations";
import { and, eq, gt } from "drizzle-orm";
import { inOwnedAccounts } from "../bank-accounts/find-owned-account";
import type { Actor } from "../shared/actor";
import { loadInvitationViews } from "./invitation-view";

/**
 * The caller's outgoing pending invitations across the accounts the caller still owns (unexpired
 * ones only, as for an account's list).
 */
export async function listMyInvitations(db: Database, actor: Actor, now = new Date()) {
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
