import type { Tx } from "@allot/db/create-database";
import { composeEmail } from "../email/compose-email";
import { enqueueEmail } from "../email/enqueue-email";
import type { SecretVault } from "../secrets/secret-vault";
import { EMAIL_CHANGE_CONFIRM_HOURS, EMAIL_CHANGE_REVOCATION_DAYS } from "./email-change-rules";

const base = (publicBaseUrl: string) => publicBaseUrl.replace(/\/+$/, "");

/** The pages the emailed links open (`/links/…`, server-rendered, acting on a button press). */
export const emailChangeConfirmLink = (publicBaseUrl: string, token: string) =>
  `${base(publicBaseUrl)}/links/email-change/${token}/confirm`;
export const emailChangeRevokeLink = (publicBaseUrl: string, token: string) =>
  `${base(publicBaseUrl)}/links/email-change/${token}/revoke`;

/**
 * The two messages of an email change, queued in the request's transaction: the confirm link to
 * the new address (proving it is reachable), the revoke link to the old one (so the owner can undo
 * a change they did not ask for).
 */
export async function enqueueEmailChangeEmails(
  tx: Tx,
  change: { oldEmail: string; newEmail: string; confirmToken: string; revokeToken: string },
  { publicBaseUrl, vault }: { publicBaseUrl: string; vault: SecretVault },
) {
  await enqueueEmail(
    tx,
    {
      kind: "email_change_confirm",
      to: change.newEmail,
      ...composeEmail({
        subject: "Confirm your new Allot email address",
        paragraphs: [`Confirm that ${change.newEmail} should become the login email of your Allot account.`],
        action: {
          label: "Confirm the new address",
          url: emailChangeConfirmLink(publicBaseUrl, change.confirmToken),
        },
        footer: `The link works once, for ${EMAIL_CHANGE_CONFIRM_HOURS} hours. If you did not ask for this, ignore this email.`,
      }),
    },
    { vault },
  );
  // A system account has no address of its own: there is nobody to warn.
  if (!change.oldEmail) return;
  await enqueueEmail(
    tx,
    {
      kind: "email_change_revoke",
      to: change.oldEmail,
      ...composeEmail({
        subject: "Your Allot login email is being changed",
        paragraphs: [
          `Someone signed in to your Allot account asked to change its login email from ${change.oldEmail} to ${change.newEmail}.`,
          "If that was not you, cancel the change. Once it was confirmed, cancelling gives the account back to this address, signs every session out, revokes API keys and disables webhooks created since the request, and sends you a link to choose a new password.",
        ],
        action: { label: "Cancel the change", url: emailChangeRevokeLink(publicBaseUrl, change.revokeToken) },
        footer: `The link works until ${EMAIL_CHANGE_REVOCATION_DAYS} days after the new address is confirmed.`,
      }),
    },
    { vault },
  );
}
