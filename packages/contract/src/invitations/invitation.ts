import { z } from "zod";
import { dateTimeOutput } from "../http/fields";

export const INVITATION_STATUSES = ["pending", "accepted", "declined", "cancelled", "expired"] as const;

/** What the inviter and the account's owners see of an invitation (the token included). */
export const BankAccountInvitationSchema = z
  .object({
    id: z.uuid(),
    token: z.string().describe("Opaque; the invitee's credential for the public endpoints"),
    bank_account_id: z.uuid(),
    bank_account_name: z.string(),
    invitee_email: z.email(),
    invited_by: z.string().describe("The inviter's email"),
    status: z.enum(INVITATION_STATUSES),
    expires_at: dateTimeOutput(),
    accepted_at: dateTimeOutput().nullable(),
    declined_at: dateTimeOutput().nullable(),
    cancelled_at: dateTimeOutput().nullable(),
    created_at: dateTimeOutput(),
    modified_at: dateTimeOutput(),
  })
  .meta({ id: "BankAccountInvitation" });

/** What the holder of an invitation's token sees before accepting or declining it. */
export const InvitationDetailsSchema = z
  .object({
    id: z.uuid(),
    status: z.enum(INVITATION_STATUSES),
    invitee_email: z.email(),
    bank_account_name: z.string(),
    bank_name: z.string(),
    current_owners: z.array(z.string()).describe("The emails of the account's owners"),
    is_new_user: z.boolean().describe("The invitee has no usable password yet"),
    expires_at: dateTimeOutput(),
  })
  .meta({ id: "InvitationDetails" });
