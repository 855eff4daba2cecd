import { z } from "zod";
import { noContent, noInput, uuidField } from "../http/fields";
import { defineRoute } from "../http/route";
import { BankAccountInvitationSchema, InvitationDetailsSchema } from "./invitation";

const tags = ["invitations"];

// A malformed token is refused like an unknown one: path values that fail validation answer 404.
// On the owners' routes `{token}` is the listed handle; on the public ones it is the secret from the
// invitee's email, and a handle there is unknown (404).
const token = z.string().min(1).max(128);

// 150: an invited address becomes the username of its placeholder user (username max 150).
const inviteeEmail = z
  .string({ error: (issue) => (issue.input === undefined ? "This field is required." : undefined) })
  .trim()
  .max(150)
  .pipe(z.email("Enter a valid email address."));

export const listAccountInvitationsRoute = defineRoute({
  method: "GET",
  path: "/v1/bank-accounts/{id}/invitations/",
  status: 200,
  summary: "The account's pending invitations",
  tags,
  access: "interactive",
  input: z.object({ id: uuidField() }),
  output: z.array(BankAccountInvitationSchema),
});

export const inviteRoute = defineRoute({
  method: "POST",
  path: "/v1/bank-accounts/{id}/invite/",
  status: 201,
  summary: "Invite an address to co-own the account; the invitee gets an email with the link",
  tags,
  access: "interactive",
  input: z.object({ id: uuidField(), invitee_email: inviteeEmail }),
  output: noContent(),
});

export const cancelInvitationRoute = defineRoute({
  method: "POST",
  path: "/v1/bank-accounts/{id}/invitations/{token}/cancel/",
  status: 200,
  summary: "Cancel a pending invitation by its listed token (only its inviter may)",
  tags,
  access: "interactive",
  input: z.object({ id: uuidField(), token }),
  output: noContent(),
});

export const listMyInvitationsRoute = defineRoute({
  method: "GET",
  path: "/v1/users/me/invitations/",
  status: 200,
  summary: "The caller's outgoing pending invitations, across accounts",
  tags,
  access: "interactive",
  input: noInput(),
  output: z.array(BankAccountInvitationSchema),
});

export const getInvitationRoute = defineRoute({
  method: "GET",
  path: "/v1/invitations/{token}/",
  status: 200,
  summary:
    "An invitation, by the secret in the invitee's emailed link (public: that secret is the credential; the listed token is 404). A closed one shows only its status",
  tags,
  access: "public",
  input: z.object({ token }),
  output: InvitationDetailsSchema,
});

export const acceptInvitationRoute = defineRoute({
  method: "POST",
  path: "/v1/invitations/{token}/accept/",
  status: 200,
  summary:
    "Accept an invitation by the secret in the invitee's emailed link: the invitee becomes an owner; a new user gets a password-reset email",
  tags,
  access: "public",
  input: z.object({ token }),
  output: noContent(),
});

export const declineInvitationRoute = defineRoute({
  method: "POST",
  path: "/v1/invitations/{token}/decline/",
  status: 200,
  summary: "Decline an invitation by the secret in the invitee's emailed link",
  tags,
  access: "public",
  input: z.object({ token }),
  output: noContent(),
});
