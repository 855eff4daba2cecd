import { z } from "zod";
import { integerField, noInput, pageQuery, paginated, uuidField } from "../http/fields";
import { defineRoute } from "../http/route";
import { ApiKeySchema, CreatedApiKeySchema } from "./api-key";

const tags = ["api-keys"];

export const listApiKeysRoute = defineRoute({
  method: "GET",
  path: "/v1/users/me/api-keys/",
  status: 200,
  summary: "The caller's API keys: active, expired and revoked",
  tags,
  access: "interactive",
  input: z.object(pageQuery),
  output: paginated(ApiKeySchema),
});

export const createApiKeyRoute = defineRoute({
  method: "POST",
  path: "/v1/users/me/api-keys/",
  status: 201,
  summary: "Create an API key; the plaintext key is returned once",
  tags,
  access: "interactive",
  input: z.object({
    name: z.string().trim().min(1, "This field may not be blank.").max(100),
    expiry_days: integerField()
      .pipe(z.number().min(1, "Must be at least 1.").max(3650, "Must be at most 3650."))
      .nullable()
      .optional(),
  }),
  output: CreatedApiKeySchema,
});

export const revokeAllApiKeysRoute = defineRoute({
  method: "POST",
  path: "/v1/users/me/api-keys/revoke-all/",
  status: 200,
  summary: "Revoke every active key of the caller",
  tags,
  access: "interactive",
  input: noInput(),
  output: z.object({ revoked: z.number().int() }),
});

export const getApiKeyRoute = defineRoute({
  method: "GET",
  path: "/v1/users/me/api-keys/{uuid}/",
  status: 200,
  summary: "Retrieve one of the caller's API keys",
  tags,
  access: "interactive",
  input: z.object({ uuid: uuidField() }),
  output: ApiKeySchema,
});

export const revokeApiKeyRoute = defineRoute({
  method: "POST",
  path: "/v1/users/me/api-keys/{uuid}/revoke/",
  status: 200,
  summary: "Revoke an API key; it stops authenticating at once and stays listed",
  tags,
  access: "interactive",
  input: z.object({ uuid: uuidField() }),
  output: ApiKeySchema,
});
