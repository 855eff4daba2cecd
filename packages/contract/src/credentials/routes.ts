import { z } from "zod";
import { noContent } from "../http/fields";
import { defineRoute } from "../http/route";

const userTags = ["users"];
const resetTags = ["password-reset"];
/** Why these writes record no activity event. */
const noEvents = { none: "credentials are the user's, not an account's" };

// A malformed token is refused like an unknown one: path values that fail validation answer 404.
const token = z
  .string()
  .min(1)
  .max(128)
  .meta({ description: "The token of the emailed link.", example: "q3Zt9LwXv2mKp8RsYb4NcJf6Hd1Ue7Ga" });

const required = (issue: { input: unknown }) =>
  issue.input === undefined ? "This field is required." : undefined;
const password = () => z.string({ error: required }).min(1, "This field may not be blank.").max(4096);

// 150, not 254: a username that is the login email follows it (username max 150).
const email = () =>
  z.string({ error: required }).trim().max(150).pipe(z.email("Enter a valid email address."));

const newPasswordFields = {
  new_password: password().meta({
    description: "The new password; it must score at least 2 of 4 for strength (zxcvbn).",
    example: "plum-orbit-harvest-92",
  }),
  confirm_password: password().meta({
    description: "The new password again.",
    example: "plum-orbit-harvest-92",
  }),
};

/** The credentials routes, each keyed by the one name the API, the SDK and the CLI give it. */
export const credentialRoutes = {
  changePassword: defineRoute({
    method: "POST",
    path: "/v1/users/me/change-password/",
    status: 204,
    summary: "Change the caller's password; other sessions end, the caller gets a new refresh cookie",
    description:
      "Checks `current_password`, then sets `new_password` (which must match `confirm_password` and score at least 2 for strength). Every other session ends; the caller stays signed in with a new refresh cookie on this response. API keys are not affected. 403 without a usable password. Needs an interactive login.",
    tags: userTags,
    access: "interactive",
    refreshCookie: { sets: "issued" },
    events: noEvents,
    input: z.object({
      current_password: password().meta({
        description: "The password in use now.",
        example: "correct horse battery staple",
      }),
      ...newPasswordFields,
    }),
    output: noContent(),
  }),

  changeEmail: defineRoute({
    method: "POST",
    path: "/v1/users/me/change-email/",
    status: 201,
    summary:
      "Ask to change the login email: a confirm link goes to the new address, a revoke link to the old",
    description:
      "Starts a verified email change: a confirmation link goes to `new_email` and a revocation link to the current address. 403 without a usable password; 409 when the address is taken or a revocation window is open. Needs an interactive login.",
    tags: userTags,
    access: "interactive",
    errors: [409],
    events: noEvents,
    input: z.object({
      new_email: email().meta({
        description: "The address to log in with from now on.",
        example: "ada.lovelace@example.org",
      }),
    }),
    output: noContent(),
  }),

  confirmEmailChange: defineRoute({
    method: "POST",
    path: "/v1/users/me/change-email/{token}/confirm/",
    status: 200,
    summary: "Confirm an email change with the new address's token (public: the token is the credential)",
    description:
      "Completes an email change with the token of the link sent to the new address: the login email becomes the new one and a 7-day revocation window opens for the old address. Public: the token is the credential; an unknown or used token is 404.",
    tags: userTags,
    access: "public",
    errors: [409],
    events: noEvents,
    input: z.object({ token }),
    output: noContent(),
  }),

  revokeEmailChange: defineRoute({
    method: "POST",
    path: "/v1/users/me/change-email/{token}/revoke/",
    status: 200,
    summary: "Cancel an email change with the old address's token; after confirmation, revert it (7 days)",
    description:
      "Cancels an email change with the token of the link sent to the old address: before confirmation it stops the change; within 7 days after, it restores the old email and ends every session. Public: the token is the credential; an unknown or spent token is 404.",
    tags: userTags,
    access: "public",
    errors: [409],
    events: noEvents,
    input: z.object({ token }),
    output: noContent(),
  }),

  requestPasswordReset: defineRoute({
    method: "POST",
    path: "/v1/password-reset/",
    status: 204,
    summary: "Email a password-reset link to the address if it has an account; always 204",
    description:
      "Sends a reset link to the address when it belongs to an account. The answer is 204 either way, so it does not tell whether the address is registered.",
    tags: resetTags,
    access: "public",
    events: noEvents,
    input: z.object({
      email: z
        .string({ error: required })
        .trim()
        .min(1, "This field may not be blank.")
        .max(254)
        .meta({ description: "The login email of the account.", example: "ada@example.com" }),
    }),
    output: noContent(),
  }),

  confirmPasswordReset: defineRoute({
    method: "POST",
    path: "/v1/password-reset/{token}/confirm/",
    status: 204,
    summary: "Set a new password with a reset link's token; every session ends, API keys stay",
    description:
      "Sets `new_password` (matching `confirm_password`, strength at least 2) for the account of the emailed reset token. Every session of the account ends; API keys keep working. Public: the token is the credential; an unknown, used or expired token is 404.",
    tags: resetTags,
    access: "public",
    events: noEvents,
    input: z.object({ token, ...newPasswordFields }),
    output: noContent(),
  }),
};
