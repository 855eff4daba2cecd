import type { credentialRoutes } from "@allot/contract/credentials/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { emailChanges } from "@allot/db/schema/credential-tokens";
import { eq } from "drizzle-orm";
import { notifyUser } from "../events/record-notification";
import { ValidationFailed } from "../shared/errors";
import type { PublicContext } from "../shared/use-case-context";
import { lockEmailChangeByToken } from "./find-email-change";
import { invalidatePasswordResets } from "./invalidate-password-resets";
import { moveLoginEmail } from "./move-login-email";

/**
 * The new address's link: the login email becomes the new address and the 7-day revocation window
 * opens. Unknown token 404; a used, superseded, revoked or expired one 400. Reset links sent to the
 * old address stop working (the account no longer answers to it).
 */
export async function confirmEmailChange(
  { db, now }: PublicContext,
  { token }: RouteInput<typeof credentialRoutes.confirmEmailChange>,
): Promise<void> {
  await db.transaction(async (tx) => {
    const change = await lockEmailChangeByToken(tx, "confirm", token);
    if (change.status === "confirmed") {
      throw ValidationFailed.general("This email change has already been confirmed.");
    }
    if (change.status === "revoked") {
      throw ValidationFailed.general("This email change was cancelled or replaced by a newer one.");
    }
    if (change.confirmExpiresAt <= now) {
      throw ValidationFailed.general("This email-change link has expired.");
    }
    await moveLoginEmail(tx, change.userId, change.oldEmail, change.newEmail);
    await tx
      .update(emailChanges)
      .set({ status: "confirmed", confirmedAt: now })
      .where(eq(emailChanges.id, change.id));
    await invalidatePasswordResets(tx, change.userId, now);
    await notifyUser(tx, change.userId, "email_changed", {
      previous_email: change.oldEmail,
      email: change.newEmail,
    });
  });
}
