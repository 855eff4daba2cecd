import type { Database } from "@allot/db/create-database";
import { invitations } from "@allot/db/schema/invitations";
import { and, eq, gt } from "drizzle-orm";
import { findOwnedAccount } from "../bank-accounts/find-owned-account";
import type { Actor } from "../shared/actor";
import { loadInvitationViews } from "./invitation-view";

/**
 * The account's pending invitations, whoever of its owners sent them. One past its expiry is
 * left out even before the hourly job marks it expired.
 */
export async function listAccountInvitations(
  db: Database,
  actor: Actor,
  accountId: string,
  now = new Date(),
) {
  const account = await findOwnedAccount(db, actor, accountId);
  return loadInvitationViews(
    db,
    and(
      eq(invitations.bankAccountId, account.id),
      eq(invitations.status, "pending"),
      gt(invitations.expiresAt, now),
    ),
  );
}
