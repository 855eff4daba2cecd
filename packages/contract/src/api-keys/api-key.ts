import { z } from "zod";
import { dateTimeOutput, describeFields } from "../http/fields";

export const ApiKeySchema = z
  .object(
    describeFields(
      {
        uuid: z.uuid(),
        name: z.string(),
        prefix: z.string(),
        expires_at: dateTimeOutput().nullable(),
        last_used_at: dateTimeOutput().nullable(),
        revoked_at: dateTimeOutput().nullable(),
        created_at: dateTimeOutput(),
      },
      {
        uuid: ["The key's id.", "9b2e4c61-7f3a-4d8e-b1c5-2a6f0e9d8c47"],
        name: ["The caller's label for the key.", "Nightly bank import"],
        prefix: [
          "The key's first characters, to recognize it by; the key itself is never listed.",
          "ak_7Hc2",
        ],
        expires_at: ["When the key stops working; null: never.", "2027-05-01T00:00:00Z"],
        last_used_at: ["When the key last authenticated a request; null: never.", "2026-04-30T05:12:44Z"],
        revoked_at: ["When the key was revoked; null while it is not.", null],
        created_at: ["When the key was created.", "2026-05-01T08:00:00Z"],
      },
    ),
  )
  .meta({ id: "APIKey", description: "An API key, without its key material." });

export const CreatedApiKeySchema = ApiKeySchema.extend({
  key: z.string().meta({
    description: "The plaintext key for `Authorization: Api-Key <key>`; returned only here, store it now.",
    example: "ak_7Hc2Qm9xLw4pRt8vYz1bNe6uKs3dFg5h",
  }),
}).meta({ id: "CreatedAPIKey", description: "A new API key, with its plaintext key (shown once)." });
