import { pathParameters, type RouteSpec } from "./route";

export interface RequestParts {
  /** Below `/api`, path parameters filled in, with the query string (if any). */
  path: string;
  /** The JSON body for POST, PUT and PATCH; undefined for GET and DELETE. */
  body: Record<string, unknown> | undefined;
}

/**
 * Splits one flat input (the shape the contract's `input` schema describes) into the URL and
 * the body: `{param}`s come from the input, the rest is the query (GET, DELETE) or JSON body.
 * The SDK's transport and the API's test client build their requests with it.
 */
export function requestParts(route: Pick<RouteSpec, "method" | "path">, input: unknown): RequestParts {
  const rest: Record<string, unknown> = { ...((input ?? {}) as Record<string, unknown>) };
  let path = route.path;
  for (const name of pathParameters(route.path)) {
    const value = rest[name];
    if (value === undefined || value === null || value === "") {
      throw new TypeError(
        `${route.method} ${route.path}: the path parameter '${name}' is missing from the input`,
      );
    }
    path = path.replace(`{${name}}`, encodeURIComponent(String(value)));
    delete rest[name];
  }
  if (route.method !== "GET" && route.method !== "DELETE") return { path, body: rest };
  const query = toQueryString(rest);
  return { path: query ? `${path}?${query}` : path, body: undefined };
}

function toQueryString(values: Record<string, unknown>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      query.append(name, queryValue(item));
    }
  }
  return query.toString();
}

function queryValue(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}
