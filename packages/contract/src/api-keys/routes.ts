import { z } from "zod";
import { nameText } from "../http/control-characters";
import { integerField, noInput, pageQuery, paginated, uuidField } from "../http/fields";
import { defineRoute } from "../http/route";
import { ApiKeySchema, CreatedApiKeySchema } from "./api-key";

const tags = ["api-keys"];
/** Why these writes record no activity event. */
const noEvents = { none: "an API key is the user's, not an account's" };
const keyId = uuidField().meta({ description: "The API key's `uuid`." });

/** The api keys routes, each keyed by the one name the API, the SDK and the CLI give it. */
export const apiKeyRoutes = {
  list: defineRoute({
    method: "GET",
    path: "/v1/users/me/api-keys/",
    status: 200,
    summary: "The caller's API keys: active, expired and revoked",
    description:
      "All the caller's API keys, active, expired and revoked, without key material. Needs an interactive login.",
    tags,
    access: "interactive",
    input: z.object(pageQuery),
    output: paginated(ApiKeySchema),
  }),

  create: defineRoute({
    method: "POST",
    path: "/v1/users/me/api-keys/",
    status: 201,
    summary: "Create an API key; the plaintext key is returned once",
    description:
      "Creates a key for a machine client. The answer's `key` is the plaintext key, shown only here: only a digest is stored, and `prefix` identifies the key later. `expiry_days` sets its lifetime (null or absent: it never expires). Needs an interactive login.",
    tags,
    access: "interactive",
    events: noEvents,
    input: z.object({
      name: nameText()
        .trim()
        .min(1, "This field may not be blank.")
        .max(100)
        .meta({ description: "A label for the key, up to 100 characters.", example: "Nightly bank import" }),
      expiry_days: integerField()
        .pipe(z.number().min(1, "Must be at least 1.").max(3650, "Must be at most 3650."))
        .nullable()
        .meta({
          description:
            "The key's lifetime in days, 1–3650 (clients offer 30, 60, 90 and 365); null or absent: it never expires.",
          example: 90,
        })
        .optional(),
    }),
    output: CreatedApiKeySchema,
  }),

  revokeAll: defineRoute({
    method: "POST",
    path: "/v1/users/me/api-keys/revoke-all/",
    status: 200,
    summary: "Revoke every active key of the caller",
    description:
      "Revokes every active key of the caller at once; `revoked` counts them (0 when none was active). Needs an interactive login.",
    tags,
    access: "interactive",
    events: noEvents,
    input: noInput(),
    output: z.object({
      revoked: z
        .number()
        .int()
        .meta({ description: "How many keys were revoked (0 when none was active).", example: 2 }),
    }),
  }),

  get: defineRoute({
    method: "GET",
    path: "/v1/users/me/api-keys/{uuid}/",
    status: 200,
    summary: "Retrieve one of the caller's API keys",
    description: "One of the caller's API keys, without its key material. Needs an interactive login.",
    tags,
    access: "interactive",
    input: z.object({ uuid: keyId }),
    output: ApiKeySchema,
  }),

  revoke: defineRoute({
    method: "POST",
    path: "/v1/users/me/api-keys/{uuid}/revoke/",
    status: 200,
    summary: "Revoke an API key; it stops authenticating at once and stays listed",
    description:
      "Revokes the key: it stops authenticating immediately, stays listed with `revoked_at`, and cannot be restored. Revoking a revoked key changes nothing. Needs an interactive login.",
    tags,
    access: "interactive",
    events: noEvents,
    input: z.object({ uuid: keyId }),
    output: ApiKeySchema,
  }),
};
