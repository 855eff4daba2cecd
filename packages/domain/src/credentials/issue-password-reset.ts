import type { Tx } from "@allot/db/create-database";
import { passwordResetTokens } from "@allot/db/schema/credential-tokens";
import { randomToken, sha256 } from "../auth/token-digest";
import { composeEmail } from "../email/compose-email";
import { enqueueEmail } from "../email/enqueue-email";

export const PASSWORD_RESET_HOURS = 24;

/** The page a reset link opens (`/links/…`, server-rendered, acts on a button press). */
export const passwordResetLink = (publicBaseUrl: string, token: string) =>
  `${publicBaseUrl.replace(/\/+$/, "")}/links/password-reset/${token}`;

/**
 * A single-use reset token for the user, valid 24 hours (only its digest is kept), and the email
 * carrying its link, queued in the caller's transaction. Used by the public reset request and by
 * an invitation accepted by a user who has no password yet.
 */
export async function issuePasswordReset(
  tx: Tx,
  user: { id: number; email: string },
  options: { publicBaseUrl: string; reason: "requested" | "invitation_accepted"; now?: Date },
) {
  const token = randomToken();
  const now = options.now ?? new Date();
  await tx.insert(passwordResetTokens).values({
    userId: user.id,
    tokenDigest: sha256(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + PASSWORD_RESET_HOURS * 3_600_000),
  });
  const welcome = options.reason === "invitation_accepted";
  await enqueueEmail(tx, {
    kind: "password_reset",
    to: user.email,
    ...composeEmail({
      subject: welcome ? "Welcome to Allot: choose your password" : "Reset your Allot password",
      paragraphs: welcome
        ? ["You accepted an invitation to share a bank account on Allot.", "Choose a password to sign in."]
        : ["Someone asked to reset the password of the Allot account for this address."],
      action: {
        label: welcome ? "Choose a password" : "Reset the password",
        url: passwordResetLink(options.publicBaseUrl, token),
      },
      footer: `The link works once, for ${PASSWORD_RESET_HOURS} hours.${welcome ? "" : " If you did not ask for it, ignore this email: your password stays as it is."}`,
    }),
  });
}
