import { z } from "zod";
import { noInput, orderingField, pageQuery, paginated } from "../http/fields";
import { defineRoute } from "../http/route";
import { UserSchema, userWritableFields } from "./user";

const tags = ["users"];
/** Why these writes record no activity event. */
const noEvents = { none: "a user is not an account's data" };
const username = z
  .string()
  .max(150)
  .meta({ description: "The user's username.", example: "ada@example.com" });
const partialUserFields = z.object(userWritableFields).partial().shape;

/** The users routes, each keyed by the one name the API, the SDK and the CLI give it. */
export const userRoutes = {
  getMe: defineRoute({
    method: "GET",
    path: "/v1/users/me/",
    status: 200,
    summary: "The caller's own user (API keys allowed)",
    description:
      "The signed-in user, with `has_usable_password` (false for an account created by invitation until a password is set). The one user endpoint API keys may call.",
    tags,
    access: "user",
    input: noInput(),
    output: UserSchema,
  }),

  updateMe: defineRoute({
    method: "PATCH",
    path: "/v1/users/me/",
    status: 200,
    summary: "Update the caller's name, default bank account or timezone (interactive login only)",
    description:
      "Updates the caller's `name`, `default_bank_account` (an account the caller owns) or `timezone` (an IANA zone; importers anchor statement dates with it). Needs an interactive login: an API key gets 403.",
    tags,
    access: "interactive",
    events: noEvents,
    input: z.object(partialUserFields),
    output: UserSchema,
  }),

  list: defineRoute({
    method: "GET",
    path: "/v1/users/",
    status: 200,
    summary: "List users (staff only)",
    description: "Every user, paginated. Staff only, with an interactive login; others get 403.",
    tags,
    access: "staff",
    input: z.object({
      ordering: orderingField(["username", "email", "created_at"]).optional(),
      ...pageQuery,
    }),
    output: paginated(UserSchema),
  }),

  get: defineRoute({
    method: "GET",
    path: "/v1/users/{username}/",
    status: 200,
    summary: "Retrieve a user (staff only)",
    description: "Any user by username. Staff only, with an interactive login; others get 403.",
    tags,
    access: "staff",
    input: z.object({ username }),
    output: UserSchema,
  }),

  replace: defineRoute({
    method: "PUT",
    path: "/v1/users/{username}/",
    status: 200,
    summary: "Replace a user's writable fields (staff only)",
    description:
      "Replaces a user's writable fields: `name`, `default_bank_account` and `timezone`. Staff only, with an interactive login.",
    tags,
    access: "staff",
    events: noEvents,
    // Every writable field is optional (the spec marks none required), so PUT takes the same body as PATCH.
    input: z.object({ username, ...partialUserFields }),
    output: UserSchema,
  }),

  update: defineRoute({
    method: "PATCH",
    path: "/v1/users/{username}/",
    status: 200,
    summary: "Update some of a user's writable fields (staff only)",
    description:
      "Updates some of a user's writable fields (`name`, `default_bank_account`, `timezone`). Staff only, with an interactive login.",
    tags,
    access: "staff",
    events: noEvents,
    input: z.object({ username, ...partialUserFields }),
    output: UserSchema,
  }),
};
