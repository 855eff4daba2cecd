import { composeEmail } from "../email/compose-email";
import type { OutgoingEmail } from "../email/outgoing-email";
import { INVITATION_DAYS } from "./invitation-status";

/** The page an invitation link opens (`/links/…`, server-rendered, acts on a button press). */
export const invitationLink = (publicBaseUrl: string, secret: string) =>
  `${publicBaseUrl.replace(/\/+$/, "")}/links/invitations/${secret}`;

/** The inviter as the invitee will recognise them: "Name (email)", or the email alone. */
const describeInviter = (inviter: { name: string; email: string }) =>
  inviter.name.trim() ? `${inviter.name.trim()} (${inviter.email})` : inviter.email;

/** The co-ownership invitation sent to the invitee, naming the inviter and the account. */
export function invitationEmail(input: {
  to: string;
  /** The invitee's secret: the only copy leaves in this email. */
  secret: string;
  publicBaseUrl: string;
  inviter: { name: string; email: string };
  accountName: string;
  bankName: string;
  expiresAt: Date;
}): OutgoingEmail {
  const inviter = describeInviter(input.inviter);
  return {
    kind: "invitation",
    to: input.to,
    ...composeEmail({
      subject: `${inviter} invited you to share "${input.accountName}" on Allot`,
      paragraphs: [
        `${inviter} invited you to co-own the bank account "${input.accountName}" (${input.bankName}) on Allot.`,
        "As a co-owner you see and manage the account, its budgets and its transactions together.",
      ],
      action: { label: "Open the invitation", url: invitationLink(input.publicBaseUrl, input.secret) },
      footer:
        `The invitation expires in ${INVITATION_DAYS} days, on ${input.expiresAt.toISOString().slice(0, 10)}. ` +
        "If you did not expect it, ignore this email or decline the invitation.",
    }),
  };
}
