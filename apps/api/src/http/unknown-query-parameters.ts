import { pathParameters, type RouteSpec } from "@allot/contract/http/route";
import { ValidationFailed } from "@allot/domain/shared/errors";
import { NON_FIELD_ERRORS } from "@allot/domain/shared/validation";
import type { FastifyInstance } from "fastify";
import { z } from "zod";

/** What a page-numbered list takes even when it does not sort or filter by them (decision 0058). */
const LIST_PARAMETERS = ["page", "page_size", "ordering"];
// A query full of unknown names needs no more than this many of them named back.
const MAX_REPORTED = 20;

/**
 * The query parameters a route reads. trpc-to-openapi builds a GET's or DELETE's input from the
 * query and the path, a write's from the body and the path (the query is never read), so: the
 * input's fields less the path's on GET and DELETE, none on writes. A page-numbered list (one that
 * takes `page`) also takes the three every paging client sends.
 */
export function queryParametersOf(route: RouteSpec): ReadonlySet<string> {
  if (route.method !== "GET" && route.method !== "DELETE") return new Set();
  if (!(route.input instanceof z.ZodObject))
    throw new Error(
      `${route.method} ${route.path}: the input must be an object to name its query parameters`,
    );
  const inPath = new Set(pathParameters(route.path));
  const known = new Set(Object.keys(route.input.shape).filter((name) => !inPath.has(name)));
  if (known.has("page")) for (const name of LIST_PARAMETERS) known.add(name);
  return known;
}

/** The refusal's message: what the route does take, so a typo's fix is in the answer. */
function unknownMessage(route: RouteSpec, known: ReadonlySet<string>): string {
  if (known.size > 0) return `Unknown query parameter; this endpoint takes ${[...known].sort().join(", ")}.`;
  if (route.method === "GET" || route.method === "DELETE")
    return "Unknown query parameter; this endpoint takes none.";
  return "Unknown query parameter; this endpoint takes none (its fields go in the request body).";
}

/**
 * A query parameter the route does not read is refused (400, keyed by its name) rather than
 * ignored: a misspelt filter must not answer every row as if it had filtered. One set lookup per
 * parameter, the sets built once for all routes. Checked after the throttle, as the contract's
 * own 400s are; headers (Idempotency-Key) and the body are not concerned.
 */
export function refuseUnknownQueryParameters(app: FastifyInstance, routes: readonly RouteSpec[]) {
  const refusals = new Map(
    routes.map((route) => {
      const known = queryParametersOf(route);
      return [route, { known, message: unknownMessage(route, known) }] as const;
    }),
  );
  app.addHook("preHandler", (request, _reply, done) => {
    const route = request.allot?.route;
    const refusal = route && refusals.get(route);
    if (!refusal) return done();
    // Entries, not assignments: a parameter called `__proto__` is named like any other.
    const named: [string, string[]][] = [];
    let unknown = 0;
    for (const name of Object.keys(request.query as object)) {
      if (refusal.known.has(name)) continue;
      unknown += 1;
      if (unknown <= MAX_REPORTED) named.push([name, [refusal.message]]);
    }
    if (unknown === 0) return done();
    if (unknown > MAX_REPORTED)
      named.push([
        NON_FIELD_ERRORS,
        [`${unknown} unknown query parameters; the first ${MAX_REPORTED} are named.`],
      ]);
    done(new ValidationFailed(Object.fromEntries(named)));
  });
}
