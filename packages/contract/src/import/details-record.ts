import { z } from "zod";

/** Deeper records are refused: providers' records are a few levels deep, and storing one means
 * serialising it (recursively) and PostgreSQL parsing it (recursively, with a stack limit). */
export const MAX_DETAILS_DEPTH = 64;

// A UTF-16 surrogate without its partner: JSON can spell one ("\ud800"), jsonb cannot hold it.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Why a parsed JSON value cannot be stored as jsonb, or null. Walked with an explicit stack, so a
 * hostile nesting cannot exhaust the call stack here.
 */
export function unstorableJson(root: unknown): string | null {
  const stack: [unknown, number][] = [[root, 0]];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const [value, depth] = entry;
    if (typeof value === "string") {
      if (LONE_SURROGATE.test(value)) return "Contains text that is not valid Unicode (a lone surrogate).";
    } else if (typeof value === "object" && value !== null) {
      if (depth >= MAX_DETAILS_DEPTH) return `Nested deeper than ${MAX_DETAILS_DEPTH} levels.`;
      if (Array.isArray(value)) for (const item of value) stack.push([item, depth + 1]);
      else
        for (const [key, item] of Object.entries(value)) {
          if (LONE_SURROGATE.test(key)) return "Contains a key that is not valid Unicode (a lone surrogate).";
          stack.push([item, depth + 1]);
        }
    }
  }
  return null;
}

/** A provider's raw record: any JSON object jsonb can hold, stored verbatim. */
export const detailsRecord = () =>
  z
    .record(z.string(), z.unknown())
    .superRefine((value, context) => {
      const problem = unstorableJson(value);
      if (problem) context.addIssue({ code: "custom", message: problem });
    })
    .meta({ description: "The provider's raw record, stored verbatim." });
