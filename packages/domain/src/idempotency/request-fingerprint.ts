import { createHash } from "node:crypto";

// `password`, `current_password`, `new_password`, `confirm_password`: the contract's password fields.
const PASSWORD_FIELD = /(^|_)password$/;
const WITHHELD = "(withheld)";

/**
 * What makes two requests "the same" for an idempotency key: the method, the path and the body as
 * the contract parsed it, as SHA-256 hex. Parsing rebuilds every object in its schema's key order,
 * so JSON, form and multipart encodings of one body (in any key order) give one text; plain
 * `JSON.stringify` keeps a 5,000-row sync's fingerprint at ~3 ms (sorting keys by hand took ~18).
 * Password fields count by their presence only, never their value (decision 0049), and the digest
 * is never stored as it is: the record keeps its HMAC under the server's key (`SecretVault.fingerprint`).
 */
export const requestDigest = (method: string, path: string, input: unknown) =>
  createHash("sha256")
    .update(JSON.stringify([method, path, withoutPasswords(input ?? null)]))
    .digest("hex");

function withoutPasswords(input: unknown): unknown {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return input;
  if (!Object.keys(input).some((field) => PASSWORD_FIELD.test(field))) return input;
  return Object.fromEntries(
    Object.entries(input).map(([field, value]) => [field, PASSWORD_FIELD.test(field) ? WITHHELD : value]),
  );
}
