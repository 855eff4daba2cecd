import { createHash } from "node:crypto";

/** JSON with every object's keys sorted: equal values give equal text, whatever the key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

/**
 * What makes two requests "the same" for an idempotency key: the method, the path and the body as
 * the contract parsed it (so JSON, form and multipart encodings of one body agree), as SHA-256 hex.
 */
export const requestFingerprint = (method: string, path: string, input: unknown) =>
  createHash("sha256").update(canonicalJson({ method, path, input })).digest("hex");
