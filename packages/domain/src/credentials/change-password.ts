import type { credentialRoutes } from "@allot/contract/credentials/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { refreshTokens } from "@allot/db/schema/sessions";
import { users } from "@allot/db/schema/users";
import { and, eq, isNull } from "drizzle-orm";
import { endUserSessions } from "../auth/end-user-sessions";
import { hashPassword, verifyPassword } from "../auth/passwords";
import { type IssuedCredentials, issueCredentials } from "../auth/sessions";
import { notifyUser } from "../events/record-notification";
import { Forbidden, ValidationFailed } from "../shared/errors";
import type { UseCaseContext } from "../shared/use-case-context";
import { invalidatePasswordResets } from "./invalidate-password-resets";
import { newPasswordErrors } from "./new-password-errors";
import { lockUserWithPassword } from "./usable-password";

/**
 * Changes the caller's password (interactive sessions only). Every other session ends; the
 * caller's session stays, its refresh tokens replaced by the one returned (set as the new cookie),
 * so a copy of the old cookie is worthless. API keys and open email-change links are untouched.
 */
export async function changePassword(
  { db, actor, now, services }: UseCaseContext<"tokens">,
  input: RouteInput<typeof credentialRoutes.changePassword>,
): Promise<IssuedCredentials> {
  const sessionId = actor.sessionId;
  if (actor.credential !== "session" || !sessionId) {
    throw new Forbidden("Changing the password needs an interactive login.", "interactive_login_required");
  }
  return db.transaction(async (tx) => {
    const user = await lockUserWithPassword(tx, actor.userId);
    const errors = newPasswordErrors(input, user);
    if (!(await verifyPassword(user.passwordHash, input.current_password))) {
      errors.current_password = ["Your current password was entered incorrectly."];
    }
    if (Object.keys(errors).length) throw new ValidationFailed(errors);

    await tx
      .update(users)
      .set({ passwordHash: await hashPassword(input.new_password) })
      .where(eq(users.id, user.id));
    await invalidatePasswordResets(tx, user.id, now);
    await endUserSessions(tx, user.id, now, { keep: sessionId });
    await tx
      .update(refreshTokens)
      .set({ blacklistedAt: now })
      .where(and(eq(refreshTokens.sessionId, sessionId), isNull(refreshTokens.blacklistedAt)));
    await notifyUser(tx, user.id, "password_changed", { changed_at: now.toISOString() });
    return issueCredentials(tx, services.tokens, user.id, sessionId, now);
  });
}
