import type { RouteInput } from "@allot/contract/http/route";
import type { invitationRoutes } from "@allot/contract/invitations/routes";
import { bankAccountOwners, bankAccounts } from "@allot/db/schema/bank-accounts";
import { banks } from "@allot/db/schema/banks";
import { invitations } from "@allot/db/schema/invitations";
import { users } from "@allot/db/schema/users";
import { asc, eq } from "drizzle-orm";
import { NotFound } from "../shared/errors";
import type { PublicContext } from "../shared/use-case-context";
import { INVITATION_NOT_FOUND } from "./act-on-invitation";
import { expireInvitationsWhere } from "./expire-invitations";
import { bySecret } from "./invitation-secret";
import { effectiveStatus } from "./invitation-status";

/**
 * What the holder of the mailed secret sees before answering (public). A pending invitation past
 * its expiry reads as expired, and is marked so. Once closed (answered, cancelled, expired) only its
 * status is shown: the account's current name and owners are no business of a link that can no
 * longer be used. Owners are listed by email, in the order they joined.
 */
export async function getInvitation(
  { db, now }: PublicContext,
  { token: secret }: RouteInput<typeof invitationRoutes.get>,
) {
  const [found] = await db
    .select({
      invitation: invitations,
      accountName: bankAccounts.name,
      bankName: banks.name,
      inviteePasswordHash: users.passwordHash,
    })
    .from(invitations)
    .innerJoin(bankAccounts, eq(bankAccounts.id, invitations.bankAccountId))
    .innerJoin(banks, eq(banks.id, bankAccounts.bankId))
    .innerJoin(users, eq(users.id, invitations.inviteeId))
    .where(bySecret(secret))
    .limit(1);
  if (!found) throw new NotFound(INVITATION_NOT_FOUND);
  const { invitation } = found;

  const status = effectiveStatus(invitation, now);
  if (status !== invitation.status) await expireInvitationsWhere(db, eq(invitations.id, invitation.id), now);
  if (status !== "pending") return { status };

  const owners = await db
    .select({ email: users.email })
    .from(bankAccountOwners)
    .innerJoin(users, eq(users.id, bankAccountOwners.userId))
    .where(eq(bankAccountOwners.bankAccountId, invitation.bankAccountId))
    .orderBy(asc(bankAccountOwners.createdAt), asc(users.id));

  return {
    id: invitation.id,
    status,
    invitee_email: invitation.inviteeEmail,
    bank_account_name: found.accountName,
    bank_name: found.bankName,
    current_owners: owners.map((owner) => owner.email),
    is_new_user: found.inviteePasswordHash === null,
    expires_at: invitation.expiresAt.toISOString(),
  };
}
