import { z } from "zod";

export const CurrencySchema = z
  .object({ code: z.string(), name: z.string(), numeric: z.string().nullable() })
  .meta({ id: "Currency" });
