import type { Database } from "@allot/db/create-database";
import { emailChanges } from "@allot/db/schema/credential-tokens";
import { eq } from "drizzle-orm";
import { endUserSessions } from "../auth/end-user-sessions";
import { notifyUser } from "../notifications/record-notification";
import { ValidationFailed } from "../shared/errors";
import { revocationEndsAt } from "./email-change-rules";
import { lockEmailChangeByToken } from "./find-email-change";
import { invalidatePasswordResets } from "./invalidate-password-resets";
import { moveLoginEmail } from "./move-login-email";

/**
 * The old address's link. A pending change is cancelled. A confirmed one, within 7 days, is undone:
 * the email goes back, and every session ends and every reset link dies, since whoever changed the
 * address may hold them. Unknown token 404; revoked, expired or past the window 400.
 */
export async function revokeEmailChange(db: Database, token: string, now = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    const change = await lockEmailChangeByToken(tx, "revoke", token);
    if (change.status === "revoked") {
      throw ValidationFailed.on("non_field_errors", "This email change was already cancelled or replaced.");
    }
    if (change.status === "pending") {
      if (change.confirmExpiresAt <= now) {
        throw ValidationFailed.on(
          "non_field_errors",
          "This email change has expired; there is nothing to cancel.",
        );
      }
    } else {
      if (!change.confirmedAt || revocationEndsAt(change.confirmedAt) <= now) {
        throw ValidationFailed.on("non_field_errors", "The 7 days to revoke this email change have passed.");
      }
      await moveLoginEmail(tx, change.userId, change.newEmail, change.oldEmail);
      await endUserSessions(tx, change.userId, now);
      await invalidatePasswordResets(tx, change.userId, now);
      await notifyUser(tx, change.userId, "email_changed", {
        previous_email: change.newEmail,
        email: change.oldEmail,
        reverted: true,
      });
    }
    await tx
      .update(emailChanges)
      .set({ status: "revoked", revokedAt: now })
      .where(eq(emailChanges.id, change.id));
  });
}
