import { z } from "zod";
import { noContent } from "../http/fields";
import { defineRoute } from "../http/route";

const userTags = ["users"];
const resetTags = ["password-reset"];

// A malformed token is refused like an unknown one: path values that fail validation answer 404.
const token = z.string().min(1).max(128);

const required = (issue: { input: unknown }) =>
  issue.input === undefined ? "This field is required." : undefined;
const password = () => z.string({ error: required }).min(1, "This field may not be blank.").max(4096);

// 150, not 254: a username that is the login email follows it (username max 150).
const email = () =>
  z.string({ error: required }).trim().max(150).pipe(z.email("Enter a valid email address."));

const newPasswordFields = { new_password: password(), confirm_password: password() };

export const changePasswordRoute = defineRoute({
  method: "POST",
  path: "/v1/users/me/change-password/",
  status: 204,
  summary: "Change the caller's password; other sessions end, the caller gets a new refresh cookie",
  tags: userTags,
  access: "interactive",
  input: z.object({ current_password: password(), ...newPasswordFields }),
  output: noContent(),
});

export const changeEmailRoute = defineRoute({
  method: "POST",
  path: "/v1/users/me/change-email/",
  status: 201,
  summary: "Ask to change the login email: a confirm link goes to the new address, a revoke link to the old",
  tags: userTags,
  access: "interactive",
  input: z.object({ new_email: email() }),
  output: noContent(),
});

export const confirmEmailChangeRoute = defineRoute({
  method: "POST",
  path: "/v1/users/me/change-email/{token}/confirm/",
  status: 200,
  summary: "Confirm an email change with the new address's token (public: the token is the credential)",
  tags: userTags,
  access: "public",
  input: z.object({ token }),
  output: noContent(),
});

export const revokeEmailChangeRoute = defineRoute({
  method: "POST",
  path: "/v1/users/me/change-email/{token}/revoke/",
  status: 200,
  summary: "Cancel an email change with the old address's token; after confirmation, revert it (7 days)",
  tags: userTags,
  access: "public",
  input: z.object({ token }),
  output: noContent(),
});

export const requestPasswordResetRoute = defineRoute({
  method: "POST",
  path: "/v1/password-reset/",
  status: 204,
  summary: "Email a password-reset link to the address if it has an account; always 204",
  tags: resetTags,
  access: "public",
  input: z.object({
    email: z.string({ error: required }).trim().min(1, "This field may not be blank.").max(254),
  }),
  output: noContent(),
});

export const confirmPasswordResetRoute = defineRoute({
  method: "POST",
  path: "/v1/password-reset/{token}/confirm/",
  status: 204,
  summary: "Set a new password with a reset link's token; every session ends, API keys stay",
  tags: resetTags,
  access: "public",
  input: z.object({ token, ...newPasswordFields }),
  output: noContent(),
});
