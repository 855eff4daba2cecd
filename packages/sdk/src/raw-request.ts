import { requestParts } from "@allot/contract/http/request-parts";
import type { HttpMethod } from "@allot/contract/http/route";
import { z } from "zod";
import type { AnyRoute } from "./route-types";
import type { RequestOptions } from "./transport";

/*
 * `client.request(method, path, { query, body })`: a call the contract has no route for yet (or
 * that a tool like `allot api` builds by hand), sent as a one-off route so it takes the same road
 * as every typed call — credential, session refresh, retries, Idempotency-Key and write journal.
 */

const METHODS = new Set<HttpMethod>(["GET", "POST", "PUT", "PATCH", "DELETE"]);

export interface RawRequestOptions extends RequestOptions {
  /**
   * Added to the path's query string, for any method: a list repeats its name, a date is ISO, an
   * object is JSON, null and undefined are left out.
   */
  query?: Record<string, unknown>;
  /** The JSON object sent as the body of a POST, PUT or PATCH (`{}` when left out). */
  body?: Record<string, unknown>;
}

export type RequestMethod = HttpMethod | Lowercase<HttpMethod>;

/**
 * The one-off route and input of a raw call. The path is below `/api` (`/v1/banks/`); a URL, or a
 * path reaching out of it with `//`, is a TypeError: credentials only go to the client's server.
 */
export function rawCall(
  method: RequestMethod,
  path: string,
  options: Pick<RawRequestOptions, "query" | "body"> = {},
): { route: AnyRoute; input: unknown } {
  const verb = method.toUpperCase() as HttpMethod;
  if (!METHODS.has(verb)) throw new TypeError(`request: unknown method '${method}'`);
  if (!path.startsWith("/") || path.startsWith("//") || /[\s#]/.test(path))
    throw new TypeError(`request: '${path}' is not a path below /api (e.g. /v1/banks/)`);
  const writes = verb !== "GET" && verb !== "DELETE";
  const { body } = options;
  if (body !== undefined && (!writes || typeof body !== "object" || body === null || Array.isArray(body)))
    throw new TypeError(`request: ${verb} takes ${writes ? "a JSON object as its body" : "no body"}`);
  const [pathOnly = "", given = ""] = splitOnce(path, "?");
  // Braces would read as `{parameters}` of a route: sent encoded, as any client would send them.
  const fixed = pathOnly.replace(/\{/g, "%7B").replace(/\}/g, "%7D");
  // The contract's own query encoding (lists repeated, dates as ISO), as a typed call gets.
  const added = requestParts({ method: "GET", path: "/" }, options.query ?? {}).path.slice(2);
  const query = [given, added].filter(Boolean).join("&");
  const route: AnyRoute = {
    method: verb,
    path: query ? `${fixed}?${query}` : fixed,
    status: 200,
    summary: `${verb} ${pathOnly}`,
    tags: [],
    // Sent with the client's credential; a write carries an Idempotency-Key like any other.
    access: "user",
    input: z.unknown(),
    output: z.unknown(),
  };
  return { route, input: writes ? (body ?? {}) : {} };
}

function splitOnce(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, ""] : [text.slice(0, at), text.slice(at + 1)];
}
