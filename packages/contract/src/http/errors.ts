import { z } from "zod";

export const ErrorBodySchema = z
  .object({
    detail: z.string().meta({ description: "What went wrong, for a person.", example: "Not found." }),
    code: z.string().meta({
      description: "What went wrong, for a program: a stable snake_case code.",
      example: "not_found",
    }),
  })
  .meta({ description: "Every error except invalid input." });

export const ValidationErrorBodySchema = z.record(z.string(), z.array(z.string())).meta({
  description:
    "Invalid input: keys are the offending fields (nested paths dotted), values their messages; cross-field problems under non_field_errors.",
});
