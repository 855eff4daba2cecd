import type { z } from "zod";

/** The spec's ValidationError body: field names (dotted paths) to lists of messages. */
export type FieldErrors = Record<string, string[]>;

/** The key of messages about the request as a whole rather than one field. */
export const NON_FIELD_ERRORS = "non_field_errors";

export const addError = (errors: FieldErrors, field: string, message: string) => {
  errors[field] = [...(errors[field] ?? []), message];
};

/** zod issues as the spec's ValidationError body: dotted field paths to lists of messages. */
export function fieldErrors(issues: readonly z.core.$ZodIssue[]): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.length ? issue.path.map(String).join(".") : NON_FIELD_ERRORS;
    fields[key] = [...(fields[key] ?? []), issueMessage(issue)];
  }
  return fields;
}

function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_type" && /received undefined/.test(issue.message))
    return "This field is required.";
  if (issue.code === "invalid_type" && /received null/.test(issue.message))
    return "This field may not be null.";
  if (issue.code === "too_big" && issue.origin === "string") {
    return `Ensure this field has no more than ${issue.maximum} characters.`;
  }
  return issue.message;
}
