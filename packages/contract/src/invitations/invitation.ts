import { z } from "zod";
import { dateTimeOutput } from "../http/fields";

export const INVITATION_STATUSES = ["pending", "accepted", "declined", "cancelled", "expired"] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];
const STATUS_TEXT =
  "`pending` awaiting an answer, `accepted`, `declined`, `cancelled` by the inviter, `expired` unanswered in time.";

/** What the inviter and the account's owners see of an invitation (the token included). */
export const BankAccountInvitationSchema = z
  .object({
    id: z
      .uuid()
      .meta({ description: "The invitation's id.", example: "1c3e5a7b-9d2f-4b6c-8e0a-2c4e6f8a0b2d" }),
    token: z
      .string()
      .describe(
        "Opaque handle the account's owners cancel with. It is not the invitee's credential: the public invitation endpoints take only the secret in the link emailed to the invitee, and answer 404 to this value",
      ),
    bank_account_id: z.uuid().meta({
      description: "The id of the account to co-own.",
      example: "7c4e2b19-5a3d-4f8e-a6b1-9d0c3e2f4a58",
    }),
    bank_account_name: z.string().meta({ description: "The account's name.", example: "Everyday checking" }),
    invitee_email: z.email().meta({ description: "The invited address.", example: "grace@example.com" }),
    invited_by: z.string().meta({ description: "The inviter's email.", example: "ada@example.com" }),
    status: z.enum(INVITATION_STATUSES).meta({ description: STATUS_TEXT, example: "pending" }),
    expires_at: dateTimeOutput().meta({
      description: "When an unanswered invitation expires.",
      example: "2026-05-09T09:00:00Z",
    }),
    accepted_at: dateTimeOutput()
      .nullable()
      .meta({ description: "When it was accepted, or null.", example: null }),
    declined_at: dateTimeOutput()
      .nullable()
      .meta({ description: "When it was declined, or null.", example: null }),
    cancelled_at: dateTimeOutput()
      .nullable()
      .meta({ description: "When it was cancelled, or null.", example: null }),
    created_at: dateTimeOutput().meta({
      description: "When it was sent.",
      example: "2026-05-02T09:00:00Z",
    }),
    modified_at: dateTimeOutput().meta({
      description: "When it last changed.",
      example: "2026-05-02T09:00:00Z",
    }),
  })
  .meta({
    id: "BankAccountInvitation",
    description: "An invitation to co-own a bank account, as its owners see it.",
  });

/** What the holder of the emailed link's secret sees of a pending invitation, before answering. */
const PendingInvitationSchema = z
  .object({
    id: z.uuid().meta({ description: "The invitation's id." }),
    status: z.literal("pending").meta({ description: "Still open: it may be accepted or declined." }),
    invitee_email: z.email().meta({ description: "The invited address.", example: "grace@example.com" }),
    bank_account_name: z.string().meta({ description: "The account's name.", example: "Everyday checking" }),
    bank_name: z
      .string()
      .meta({ description: "The name of the account's bank.", example: "First National Bank" }),
    current_owners: z.array(z.string()).describe("The emails of the account's owners"),
    is_new_user: z.boolean().describe("The invitee has no usable password yet"),
    expires_at: dateTimeOutput().meta({
      description: "When it expires unanswered.",
      example: "2026-05-09T09:00:00Z",
    }),
  })
  .meta({ id: "PendingInvitationDetails", description: "An open invitation, as the invitee sees it." });

/** A closed invitation shows its status alone: not the account's current name or owners. */
const ClosedInvitationSchema = z
  .object({ status: z.enum(INVITATION_STATUSES).exclude(["pending"]).meta({ description: STATUS_TEXT }) })
  .meta({
    id: "ClosedInvitationDetails",
    description: "An answered, cancelled or expired invitation: its status alone.",
  });

export const InvitationDetailsSchema = z.union([PendingInvitationSchema, ClosedInvitationSchema]).meta({
  id: "InvitationDetails",
  description: "An invitation as the holder of its emailed secret sees it.",
});
