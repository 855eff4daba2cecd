import { z } from "zod";
import { dateTimeOutput } from "../http/fields";

export const ApiKeySchema = z
  .object({
    uuid: z.uuid(),
    name: z.string(),
    prefix: z.string(),
    expires_at: dateTimeOutput().nullable(),
    last_used_at: dateTimeOutput().nullable(),
    revoked_at: dateTimeOutput().nullable(),
    created_at: dateTimeOutput(),
  })
  .meta({ id: "APIKey" });

export const CreatedApiKeySchema = ApiKeySchema.extend({
  key: z.string().describe("The plaintext key; returned only here"),
}).meta({ id: "CreatedAPIKey" });
