import type { credentialRoutes } from "@allot/contract/credentials/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { passwordResetTokens } from "@allot/db/schema/credential-tokens";
import { users } from "@allot/db/schema/users";
import { eq } from "drizzle-orm";
import { endUserSessions } from "../auth/end-user-sessions";
import { hashPassword } from "../auth/passwords";
import { sha256 } from "../auth/token-digest";
import { notifyUser } from "../events/record-notification";
import { NotFound, ValidationFailed } from "../shared/errors";
import type { PublicContext } from "../shared/use-case-context";
import { invalidatePasswordResets } from "./invalidate-password-resets";
import { newPasswordErrors } from "./new-password-errors";

export const RESET_LINK_NOT_FOUND = "This password-reset link is not valid.";

/**
 * Sets a new password from a reset link: the token is single-use and lasts 24 hours. A placeholder
 * (invited, no password yet) becomes active. Every session ends, since one may be an intruder's;
 * API keys stay. Unknown token 404; used or expired 400, checked before the passwords.
 */
export async function confirmPasswordReset(
  { db, now }: PublicContext,
  { token, ...input }: RouteInput<typeof credentialRoutes.confirmPasswordReset>,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({
        id: passwordResetTokens.id,
        usedAt: passwordResetTokens.usedAt,
        expiresAt: passwordResetTokens.expiresAt,
        userId: users.id,
        email: users.email,
        username: users.username,
        name: users.name,
        passwordHash: users.passwordHash,
      })
      .from(passwordResetTokens)
      .innerJoin(users, eq(users.id, passwordResetTokens.userId))
      .where(eq(passwordResetTokens.tokenDigest, sha256(token)))
      .for("update")
      .limit(1);
    if (!row) throw new NotFound(RESET_LINK_NOT_FOUND);
    if (row.usedAt) throw ValidationFailed.general("This password-reset link has already been used.");
    if (row.expiresAt <= now) throw ValidationFailed.general("This password-reset link has expired.");

    const errors = newPasswordErrors(input, row);
    if (Object.keys(errors).length) throw new ValidationFailed(errors);

    await tx
      .update(users)
      .set({
        passwordHash: await hashPassword(input.new_password),
        // A placeholder's first password is what activates it; a deactivated user stays so.
        ...(row.passwordHash === null ? { isActive: true } : {}),
      })
      .where(eq(users.id, row.userId));
    await invalidatePasswordResets(tx, row.userId, now);
    await endUserSessions(tx, row.userId, now);
    await notifyUser(tx, row.userId, "password_changed", { changed_at: now.toISOString(), via: "reset" });
  });
}
