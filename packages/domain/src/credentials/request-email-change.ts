import type { credentialRoutes } from "@allot/contract/credentials/routes";
import type { RouteInput } from "@allot/contract/http/route";
import type { Tx } from "@allot/db/create-database";
import { emailChanges } from "@allot/db/schema/credential-tokens";
import { users } from "@allot/db/schema/users";
import { and, desc, eq, gt, inArray, ne, sql } from "drizzle-orm";
import { randomToken, sha256 } from "../auth/token-digest";
import { notifyUser } from "../events/record-notification";
import { Conflict, ValidationFailed } from "../shared/errors";
import type { UseCaseContext } from "../shared/use-case-context";
import { enqueueEmailChangeEmails } from "./email-change-emails";
import { EMAIL_CHANGE_CONFIRM_HOURS, revocationEndsAt, revocationWindowStart } from "./email-change-rules";
import { lockUserWithPassword } from "./usable-password";

/**
 * Asks to move the caller's login email to a new address: nothing changes until the new address's
 * confirm link is used. 403 without a usable password; 409 when the address belongs to someone
 * (case-insensitive) or while the revocation window of the caller's last confirmed change is open,
 * whether that change stands or was undone. A newer request supersedes a pending one: the older
 * request's links stop working (its row becomes `revoked`).
 */
export async function requestEmailChange(
  { db, actor, now, services }: UseCaseContext<"publicBaseUrl" | "vault">,
  { new_email: newEmail }: RouteInput<typeof credentialRoutes.changeEmail>,
): Promise<void> {
  const address = newEmail.trim();
  await db.transaction(async (tx) => {
    const user = await lockUserWithPassword(tx, actor.userId);
    if (user.email.toLowerCase() === address.toLowerCase()) {
      throw ValidationFailed.on("new_email", "This is already your email address.");
    }
    await refuseWhileWindowOpen(tx, user.id, now);
    if (await addressTaken(tx, user.id, address, now)) {
      throw new Conflict("This email address is already in use.", "email_taken");
    }

    await tx
      .update(emailChanges)
      .set({ status: "revoked", revokedAt: now })
      .where(and(eq(emailChanges.userId, user.id), eq(emailChanges.status, "pending")));
    const confirmToken = randomToken();
    const revokeToken = randomToken();
    await tx.insert(emailChanges).values({
      userId: user.id,
      oldEmail: user.email,
      newEmail: address,
      confirmTokenDigest: sha256(confirmToken),
      revokeTokenDigest: sha256(revokeToken),
      createdAt: now,
      confirmExpiresAt: new Date(now.getTime() + EMAIL_CHANGE_CONFIRM_HOURS * 3_600_000),
    });
    await enqueueEmailChangeEmails(
      tx,
      { oldEmail: user.email, newEmail: address, confirmToken, revokeToken },
      services,
    );
    await notifyUser(tx, user.id, "email_change_requested", { new_email: address });
  });
}

/**
 * 409 while a change confirmed less than 7 days ago can still be revoked, and as long after an
 * undone one: an undone change was a takeover, and its window is when the intruder, or whoever
 * still holds a session of theirs, must not be able to start another.
 */
async function refuseWhileWindowOpen(tx: Tx, userId: number, now: Date): Promise<void> {
  const [latest] = await tx
    .select({ status: emailChanges.status, confirmedAt: emailChanges.confirmedAt })
    .from(emailChanges)
    .where(
      and(
        eq(emailChanges.userId, userId),
        inArray(emailChanges.status, ["confirmed", "revoked"]),
        gt(emailChanges.confirmedAt, revocationWindowStart(now)),
      ),
    )
    .orderBy(desc(emailChanges.confirmedAt))
    .limit(1);
  if (!latest?.confirmedAt) return;
  if (latest.status === "confirmed") {
    throw new Conflict(
      "Your last email change can still be revoked from the previous address; try again once its 7-day window has closed.",
      "revocation_window_open",
    );
  }
  throw new Conflict(
    `Your last email change was undone from the previous address; for safety, a new change can be requested from ${revocationEndsAt(latest.confirmedAt).toISOString()}.`,
    "email_change_undone",
  );
}

/**
 * Another user's login email, or the old address of someone else's change still inside its
 * revocation window (a revoke must be able to give it back).
 */
async function addressTaken(tx: Tx, userId: number, address: string, now: Date): Promise<boolean> {
  const [owner] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = lower(${address}) and ${users.email} <> ''`, ne(users.id, userId)))
    .limit(1);
  if (owner) return true;
  const [reserved] = await tx
    .select({ id: emailChanges.id })
    .from(emailChanges)
    .where(
      and(
        sql`lower(${emailChanges.oldEmail}) = lower(${address})`,
        ne(emailChanges.userId, userId),
        eq(emailChanges.status, "confirmed"),
        gt(emailChanges.confirmedAt, revocationWindowStart(now)),
      ),
    )
    .limit(1);
  return Boolean(reserved);
}
