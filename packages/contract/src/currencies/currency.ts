import { z } from "zod";
import { describeFields } from "../http/fields";

export const CurrencySchema = z
  .object(
    describeFields(
      { code: z.string(), name: z.string(), numeric: z.string().nullable() },
      {
        code: ["The ISO 4217 alphabetic code.", "EUR"],
        name: ["The currency's English name.", "Euro"],
        numeric: ["The ISO 4217 numeric code; null for historic currencies.", "978"],
      },
    ),
  )
  .meta({ id: "Currency", description: "An ISO 4217 currency." });
