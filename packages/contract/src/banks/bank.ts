import { z } from "zod";
import { dateTimeOutput } from "../http/fields";

export const BankSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    routing_number: z.string().nullable(),
    default_currency: z.string(),
    created_at: dateTimeOutput(),
    modified_at: dateTimeOutput(),
  })
  .meta({ id: "Bank" });
