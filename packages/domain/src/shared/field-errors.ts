import type { z } from "zod";

/** zod issues as the spec's ValidationError body: dotted field paths to lists of messages. */
export function fieldErrors(issues: readonly z.core.$ZodIssue[]): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = issue.path.length ? issue.path.map(String).join(".") : "non_field_errors";
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
