import { z } from "zod";
import { dateTimeOutput, describeFields } from "../http/fields";

export const BankSchema = z
  .object(
    describeFields(
      {
        id: z.uuid(),
        name: z.string(),
        routing_number: z.string().nullable(),
        default_currency: z.string(),
        created_at: dateTimeOutput(),
        modified_at: dateTimeOutput(),
      },
      {
        id: ["The bank's id.", "5d0c8a1e-3b6f-4a2d-9e7c-1f4b8a6d2c93"],
        name: ["The bank's name.", "First National Bank"],
        routing_number: ["The bank's routing number, where it has one.", "021000021"],
        default_currency: ["The ISO 4217 currency a new account at this bank defaults to.", "USD"],
        created_at: ["When the bank was added.", "2026-01-05T10:00:00Z"],
        modified_at: ["When the bank last changed.", "2026-01-05T10:00:00Z"],
      },
    ),
  )
  .meta({ id: "Bank", description: "A bank an account can be held at (reference data)." });
