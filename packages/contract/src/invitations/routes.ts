import { z } from "zod";
import { noContent, noInput, uuidField } from "../http/fields";
import { defineRoute } from "../http/route";
import { BankAccountInvitationSchema, InvitationDetailsSchema } from "./invitation";

const tags = ["invitations"];

// A malformed token is refused like an unknown one: path values that fail validation answer 404.
// On the owners' routes `{token}` is the listed handle; on the public ones it is the secret from the
// invitee's email, and a handle there is unknown (404).
const token = z.string().min(1).max(128);
const handle = token.meta({
  description: "The invitation's `token`, as the account's invitation list shows it.",
});
const secret = token.meta({
  description: "The secret from the link emailed to the invitee (not the listed `token`).",
});

// 150: an invited address becomes the username of its placeholder user (username max 150).
const inviteeEmail = z
  .string({ error: (issue) => (issue.input === undefined ? "This field is required." : undefined) })
  .trim()
  .max(150)
  .pipe(z.email("Enter a valid email address."))
  .meta({ description: "The address to invite, up to 150 characters.", example: "grace@example.com" });

/** The invitations routes, each keyed by the one name the API, the SDK and the CLI give it. */
export const invitationRoutes = {
  listForAccount: defineRoute({
    method: "GET",
    path: "/v1/bank-accounts/{id}/invitations/",
    status: 200,
    summary: "The account's pending invitations",
    description: "The account's pending invitations (not paginated). Needs an interactive login.",
    tags,
    access: "interactive",
    input: z.object({ id: uuidField().meta({ description: "The bank account's id." }) }),
    output: z.array(BankAccountInvitationSchema),
  }),

  invite: defineRoute({
    method: "POST",
    path: "/v1/bank-accounts/{id}/invite/",
    status: 201,
    summary: "Invite an address to co-own the account; the invitee gets an email with the link",
    description:
      "Invites an email address to co-own the account; the invitee gets an email with the link. An address without an account gets an inactive placeholder user. 409 when the address already owns the account or has a pending invitation; 429 when that address got too many invitations for this account recently. Needs an interactive login.",
    tags,
    access: "interactive",
    errors: [409],
    events: ["invitation.created"],
    input: z.object({
      id: uuidField().meta({ description: "The bank account's id." }),
      invitee_email: inviteeEmail,
    }),
    output: noContent(),
  }),

  cancel: defineRoute({
    method: "POST",
    path: "/v1/bank-accounts/{id}/invitations/{token}/cancel/",
    status: 200,
    summary: "Cancel a pending invitation by its listed token (only its inviter may)",
    description:
      "Cancels a pending invitation of the account, by the token in the invitation list. Only the inviter may (others get 403). Needs an interactive login.",
    tags,
    access: "interactive",
    events: ["invitation.cancelled"],
    input: z.object({ id: uuidField().meta({ description: "The bank account's id." }), token: handle }),
    output: noContent(),
  }),

  listMine: defineRoute({
    method: "GET",
    path: "/v1/users/me/invitations/",
    status: 200,
    summary: "The caller's outgoing pending invitations, across accounts",
    description:
      "The pending invitations the caller sent, across all accounts (not paginated). Needs an interactive login.",
    tags,
    access: "interactive",
    input: noInput(),
    output: z.array(BankAccountInvitationSchema),
  }),

  get: defineRoute({
    method: "GET",
    path: "/v1/invitations/{token}/",
    status: 200,
    summary:
      "An invitation, by the secret in the invitee's emailed link (public: that secret is the credential; the listed token is 404). A closed one shows only its status",
    description:
      "What the invitee sees before answering: the account, the bank, the current owners and whether accepting creates a user. A closed invitation shows only its status. Public: the emailed link's secret is the credential; the token from the inviter's list is not accepted here (404).",
    tags,
    access: "public",
    input: z.object({ token: secret }),
    output: InvitationDetailsSchema,
  }),

  accept: defineRoute({
    method: "POST",
    path: "/v1/invitations/{token}/accept/",
    status: 200,
    summary:
      "Accept an invitation by the secret in the invitee's emailed link: the invitee becomes an owner; a new user gets a password-reset email",
    description:
      "Accepts the invitation: the invitee becomes an owner of the account. An invitee created by the invitation (no password yet) is activated and gets a password-reset email; accepting never issues credentials. Public: the emailed link's token is the credential; an unknown token is 404.",
    tags,
    access: "public",
    events: ["invitation.accepted", "bank_account.owner_added"],
    input: z.object({ token: secret }),
    output: noContent(),
  }),

  decline: defineRoute({
    method: "POST",
    path: "/v1/invitations/{token}/decline/",
    status: 200,
    summary: "Decline an invitation by the secret in the invitee's emailed link",
    description:
      "Declines the invitation; the account is left as it was. Public: the emailed link's token is the credential; an unknown token is 404.",
    tags,
    access: "public",
    events: ["invitation.declined"],
    input: z.object({ token: secret }),
    output: noContent(),
  }),
};
