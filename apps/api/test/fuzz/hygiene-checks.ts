import { hasControlCharacters } from "@allot/contract/http/control-characters";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { maskTokenPaths } from "../../src/http/request-log";
import type { FuzzOperation } from "./openapi-operations";
import type { RequestPlan } from "./request-generator";

/*
 * What the fuzz checks beyond the document (issue 31): a name never takes a control character, a
 * bank's text keeps it, a path token never reaches the request log whatever its spelling, and a
 * path with an encoded delimiter is answered 4xx or as its own operation.
 */

/** The names a person gives, by the operations that write them: a control character in one is a 400. */
const NAME_FIELDS: [RegExp, string[]][] = [
  [/^\/v1\/bank-accounts\/(\{id\}\/)?$/, ["name"]],
  [/^\/v1\/budgets\/(\{id\}\/)?$/, ["name"]],
  [/^\/v1\/transaction-categories\/(\{id\}\/)?$/, ["group", "name"]],
  [/^\/v1\/users\/me\/api-keys\/$/, ["name"]],
  [/^\/v1\/users\/(me|\{username\})\/$/, ["name"]],
  [/^\/v1\/webhooks\/(\{id\}\/)?$/, ["description"]],
];

/** Texts that come from banks: kept as sent (trimmed), control characters and all. */
const BANK_TEXT_FIELDS: [RegExp, string[]][] = [
  [/^\/v1\/transactions\/$/, ["raw_description", "description"]],
];

const fieldsOf = (table: [RegExp, string[]][], operation: FuzzOperation) =>
  operation.method === "GET" || operation.method === "DELETE"
    ? []
    : (table.find(([path]) => path.test(operation.path))?.[1] ?? []);

/** The top-level text fields of a JSON or form body as sent, or null for another body. */
function sentFields(request: InjectOptions): Record<string, unknown> | null {
  const type = String((request.headers as Record<string, string> | undefined)?.["content-type"] ?? "");
  const payload = typeof request.payload === "string" ? request.payload : null;
  if (payload === null) return null;
  if (type === "application/json") {
    try {
      const value: unknown = JSON.parse(payload);
      return value && typeof value === "object" && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : null;
    } catch {
      return null;
    }
  }
  if (type === "application/x-www-form-urlencoded") return Object.fromEntries(new URLSearchParams(payload));
  return null;
}

/** Decodes a path up to twice (a double-encoded `%252F` included), leaving what does not decode. */
function decodedPath(url: string): string {
  let path = url.split("?")[0] ?? "";
  for (let i = 0; i < 2; i++) {
    try {
      path = decodeURIComponent(path);
    } catch {
      break;
    }
  }
  return path;
}

/** The token the request carries in its path, when the operation takes one and it looks like one. */
/** The segment a path's `{token}` stands at, and what the request put there, if it reads as a token. */
function pathToken(operation: FuzzOperation, request: InjectOptions): { at: number; token: string } | null {
  const at = `/api${operation.path}`.split("/").indexOf("{token}");
  if (at < 0) return null;
  const token = decodedPath(String(request.url)).split("/")[at] ?? "";
  return /^[\w-]{12,}$/.test(token) ? { at, token } : null;
}

/** A 4xx is a fine answer to a path spelled with an encoded delimiter, documented or not. */
export const refusedEncodedPath = (plan: RequestPlan, response: LightMyRequestResponse) =>
  plan.encodedDelimiter !== null && response.statusCode >= 400 && response.statusCode < 500;

export function hygieneProblem(
  operation: FuzzOperation,
  request: InjectOptions,
  response: LightMyRequestResponse,
): string | null {
  // The token's own segment, as the log would show the path: the same text elsewhere in the URL (an
  // id the fuzz reused, a query value) is not the token.
  const token = pathToken(operation, request);
  if (token && decodedPath(maskTokenPaths(String(request.url))).split("/")[token.at] === token.token)
    return "the request log would show a path token";

  const sent = sentFields(request);
  if (!sent || response.statusCode >= 300) return null;
  for (const field of fieldsOf(NAME_FIELDS, operation)) {
    const value = sent[field];
    if (typeof value === "string" && hasControlCharacters(value))
      return `accepted a control character in ${field}`;
  }
  const answer = (() => {
    try {
      return JSON.parse(response.body) as Record<string, unknown>;
    } catch {
      return {};
    }
  })();
  for (const field of fieldsOf(BANK_TEXT_FIELDS, operation)) {
    const value = sent[field];
    if (typeof value === "string" && hasControlCharacters(value) && answer[field] !== value.trim())
      return `changed the bank text in ${field}`;
  }
  return null;
}
