import type { RouteInput } from "@allot/contract/http/route";
import type { invitationRoutes } from "@allot/contract/invitations/routes";
import { bankAccountOwners } from "@allot/db/schema/bank-accounts";
import { banks } from "@allot/db/schema/banks";
import { invitations } from "@allot/db/schema/invitations";
import { users } from "@allot/db/schema/users";
import { and, eq, gt, sql } from "drizzle-orm";
import { writeAccount } from "../account-access/write-account";
import { enqueueEmail } from "../email/enqueue-email";
import type { AccountChange } from "../events/record-event";
import { Conflict, Throttled } from "../shared/errors";
import type { UseCaseContext } from "../shared/use-case-context";
import { expireInvitationsWhere } from "./expire-invitations";
import { findOrCreateInvitee } from "./find-or-create-invitee";
import { invitationEmail } from "./invitation-email";
import { INVITATION_LIMIT, INVITATION_WINDOW_DAYS, invitationLimitRetryAfter } from "./invitation-limit";
import { newInvitationHandle, newInvitationSecret } from "./invitation-secret";
import { invitationExpiry } from "./invitation-status";

/**
 * Invites an address to co-own the account and queues the invitation email, which alone carries
 * the invitee's secret (the stored row has its digest and a separate handle for the owners). The account row is
 * locked first, so two invitations to one address at once cannot both pass the pending check.
 * Checks in order (docs/spec/operations.md): already an owner 409, a pending invitation 409, the per-address
 * limit 429.
 */
export async function inviteToAccount(
  ctx: UseCaseContext<"publicBaseUrl" | "vault">,
  { id: accountId, invitee_email: email }: RouteInput<typeof invitationRoutes.invite>,
) {
  const { actor, now, services } = ctx;
  await writeAccount(ctx, { accountId, owner: actor }, async (tx, account) => {
    const sameAddress = and(
      eq(invitations.bankAccountId, account.id),
      sql`lower(${invitations.inviteeEmail}) = lower(${email})`,
    );

    const [owner] = await tx
      .select({ userId: bankAccountOwners.userId })
      .from(bankAccountOwners)
      .innerJoin(users, eq(users.id, bankAccountOwners.userId))
      .where(
        and(eq(bankAccountOwners.bankAccountId, account.id), sql`lower(${users.email}) = lower(${email})`),
      )
      .limit(1);
    if (owner)
      throw new Conflict("This address already belongs to an owner of the account.", "already_owner");

    // A pending one past its expiry no longer blocks: it is marked expired here and now.
    await expireInvitationsWhere(tx, sameAddress, now);
    const [pending] = await tx
      .select({ id: invitations.id })
      .from(invitations)
      .where(and(sameAddress, eq(invitations.status, "pending")))
      .limit(1);
    if (pending)
      throw new Conflict("A pending invitation to this address already exists.", "invitation_pending");

    const windowStart = new Date(now.getTime() - INVITATION_WINDOW_DAYS * 86_400_000);
    const sent = await tx
      .select({ createdAt: invitations.createdAt })
      .from(invitations)
      .where(and(sameAddress, gt(invitations.createdAt, windowStart)));
    const retryAfter = invitationLimitRetryAfter(
      sent.map((row) => row.createdAt),
      now,
    );
    if (retryAfter !== null) {
      throw Object.assign(new Throttled(retryAfter), {
        message: `At most ${INVITATION_LIMIT} invitations to one address per account in ${INVITATION_WINDOW_DAYS} days; try again in ${retryAfter} seconds.`,
      });
    }

    const invitee = await findOrCreateInvitee(tx, email);
    const handle = newInvitationHandle();
    const { secret, digest } = newInvitationSecret();
    const expiresAt = invitationExpiry(now);
    const [invitation] = await tx
      .insert(invitations)
      .values({
        token: handle,
        secretDigest: digest,
        bankAccountId: account.id,
        inviterId: actor.userId,
        inviteeId: invitee.id,
        inviteeEmail: invitee.email,
        expiresAt,
        createdAt: now,
        modifiedAt: now,
      })
      .returning({ id: invitations.id });
    if (!invitation) throw new Error("invitation insert returned nothing");
    // The handle and the secret are credentials: the trail names the invitation by its id.
    const event: AccountChange = {
      accountId: account.id,
      type: "invitation.created",
      says: `invited ${invitee.email} to co-own the account`,
      data: { id: invitation.id, invitee_email: invitee.email, expires_at: expiresAt.toISOString() },
    };

    const [inviter] = await tx
      .select({ name: users.name, email: users.email })
      .from(users)
      .where(eq(users.id, actor.userId));
    const [bank] = await tx.select({ name: banks.name }).from(banks).where(eq(banks.id, account.bankId));
    if (!inviter || !bank) throw new Error("inviter or bank vanished under a locked account");
    await enqueueEmail(
      tx,
      invitationEmail({
        to: invitee.email,
        secret,
        publicBaseUrl: services.publicBaseUrl,
        inviter,
        accountName: account.name,
        bankName: bank.name,
        expiresAt,
      }),
      services,
    );
    return { event, result: undefined };
  });
}
