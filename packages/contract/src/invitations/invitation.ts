import { z } from "zod";
import { dateTimeOutput } from "../http/fields";

export const INVITATION_STATUSES = ["pending", "accepted", "declined", "cancelled", "expired"] as const;

/** What the inviter and the account's owners see of an invitation (the token included). */
export const BankAccountInvitationSchema = z
  .object({
    id: z.uuid(),
    token: z
      .string()
      .describe(
        "Opaque handle the account's owners cancel with. It is not the invitee's credential: the public invitation endpoints take only the secret in the link emailed to the invitee, and answer 404 to this value",
      ),
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

/** What the holder of the emailed link's secret sees of a pending invitation, before answering. */
const PendingInvitationSchema = z
  .object({
    id: z.uuid(),
    status: z.literal("pending"),
    invitee_email: z.email(),
    bank_account_name: z.string(),
    bank_name: z.string(),
    current_owners: z.array(z.string()).describe("The emails of the account's owners"),
    is_new_user: z.boolean().describe("The invitee has no usable password yet"),
    expires_at: dateTimeOutput(),
  })
  .meta({ id: "PendingInvitationDetails" });

/** A closed invitation shows its status alone: not the account's current name or owners. */
const ClosedInvitationSchema = z
  .object({ status: z.enum(INVITATION_STATUSES).exclude(["pending"]) })
  .meta({ id: "ClosedInvitationDetails" });

export const InvitationDetailsSchema = z
  .union([PendingInvitationSchema, ClosedInvitationSchema])
  .meta({ id: "InvitationDetails" });
