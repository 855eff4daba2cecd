import type { Tx } from "@allot/db/create-database";
import { passwordResetTokens } from "@allot/db/schema/credential-tokens";
import { randomToken, sha256 } from "../auth/token-digest";
import { composeEmail } from "../email/compose-email";
import { enqueueEmail } from "../email/enqueue-email";
import type { SecretVault } from "../secrets/secret-vault";

export const PASSWORD_RESET_HOURS = 24;

/** The page a reset link opens (`/links/…`, server-rendered, acts on a button press). */
export const passwordResetLink = (publicBaseUrl: string, token: string) =>
  `${publicBaseUrl.replace(/\/+$/, "")}/links/password-reset/${token}`;

type ResetReason = "requested" | "invitation_accepted" | "email_change_revoked";

// What each occasion's email says around the link.
const MESSAGES: Record<
  ResetReason,
  { subject: string; paragraphs: string[]; label: string; footer: string }
> = {
  requested: {
    subject: "Reset your Allot password",
    paragraphs: ["Someone asked to reset the password of the Allot account for this address."],
    label: "Reset the password",
    footer: " If you did not ask for it, ignore this email: your password stays as it is.",
  },
  invitation_accepted: {
    subject: "Welcome to Allot: choose your password",
    paragraphs: [
      "You accepted an invitation to share a bank account on Allot.",
      "Choose a password to sign in.",
    ],
    label: "Choose a password",
    footer: "",
  },
  email_change_revoked: {
    subject: "Your Allot email change was undone: choose a new password",
    paragraphs: [
      "The change of your Allot login email was undone from this address, and the account answers to it again.",
      "Whoever made the change may have set the password, so it no longer works: every session was signed out and API keys created since the change was requested were revoked.",
      "Choose a new password to sign in.",
    ],
    label: "Choose a new password",
    footer: " If it expires, ask for a new one from the sign-in page.",
  },
};

/**
 * A single-use reset token for the user, valid 24 hours (only its digest is kept), and the email
 * carrying its link, queued in the caller's transaction. Used by queued reset requests, by an
 * invitation accepted by a user who has no password yet, and by an undone email change.
 */
export async function issuePasswordReset(
  tx: Tx,
  user: { id: number; email: string },
  options: { publicBaseUrl: string; reason: ResetReason; now: Date; vault: SecretVault },
) {
  const token = randomToken();
  const { now } = options;
  await tx.insert(passwordResetTokens).values({
    userId: user.id,
    tokenDigest: sha256(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + PASSWORD_RESET_HOURS * 3_600_000),
  });
  const message = MESSAGES[options.reason];
  await enqueueEmail(
    tx,
    {
      kind: "password_reset",
      to: user.email,
      ...composeEmail({
        subject: message.subject,
        paragraphs: message.paragraphs,
        action: { label: message.label, url: passwordResetLink(options.publicBaseUrl, token) },
        footer: `The link works once, for ${PASSWORD_RESET_HOURS} hours.${message.footer}`,
      }),
    },
    options,
  );
}
