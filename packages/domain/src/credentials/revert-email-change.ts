import type { Tx } from "@allot/db/create-database";
import type { emailChanges } from "@allot/db/schema/credential-tokens";
import { users } from "@allot/db/schema/users";
import { eq } from "drizzle-orm";
import { revokeKeysCreatedSince } from "../api-keys/revoke-keys-created-since";
import { endUserSessions } from "../auth/end-user-sessions";
import { notifyUser } from "../events/record-notification";
import type { SecretVault } from "../secrets/secret-vault";
import { disableWebhooksCreatedSince } from "../webhooks/disable-credential-webhooks";
import { invalidatePasswordResets } from "./invalidate-password-resets";
import { issuePasswordReset } from "./issue-password-reset";
import { moveLoginEmail } from "./move-login-email";

type EmailChange = typeof emailChanges.$inferSelect;

/**
 * Undoes a confirmed email change as a takeover, in the revoke's transaction. Whoever changed the
 * address held a session and the new mailbox, so may have reset the password and made API keys:
 * the email (and a followed username) go back, the password becomes unusable, keys created since
 * the request are revoked, every session ends (access tokens with them), every webhook created since
 * the request or by an ended session or revoked key is disabled (decision 0048), every reset link
 * dies, and a fresh reset link goes to the restored address so the owner can choose a password.
 */
export async function revertEmailChange(
  tx: Tx,
  change: EmailChange,
  options: { publicBaseUrl: string; now: Date; vault: SecretVault },
): Promise<void> {
  const { now } = options;
  await moveLoginEmail(tx, change.userId, change.newEmail, change.oldEmail);
  await tx.update(users).set({ passwordHash: null }).where(eq(users.id, change.userId));
  // First: whatever made them, these are named for the undone change, not for their credential.
  await disableWebhooksCreatedSince(tx, change.userId, change.createdAt);
  await revokeKeysCreatedSince(tx, change.userId, change.createdAt, now);
  await endUserSessions(tx, change.userId, now);
  await invalidatePasswordResets(tx, change.userId, now);
  await issuePasswordReset(
    tx,
    { id: change.userId, email: change.oldEmail },
    { ...options, reason: "email_change_revoked" },
  );
  await notifyUser(tx, change.userId, "email_changed", {
    previous_email: change.newEmail,
    email: change.oldEmail,
    reverted: true,
  });
}
