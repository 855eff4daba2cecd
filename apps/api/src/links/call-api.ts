import type { FastifyInstance, FastifyRequest } from "fastify";

/** What a JSON endpoint answered: its status, its parsed body (if any) and Retry-After on 429. */
export interface ApiAnswer {
  status: number;
  body: unknown;
  retryAfter?: string;
}

/**
 * Calls one of the public JSON endpoints in process (`app.inject`), so a page goes through the same
 * routing, validation, throttle and error bodies as any client and cannot drift from the API. The
 * visitor's IP is passed on so the anonymous throttle counts them, not the server; no credential
 * is forwarded (the token in the path is the credential).
 */
export async function callApi(
  app: FastifyInstance,
  request: FastifyRequest,
  method: "GET" | "POST",
  path: string,
  payload?: Record<string, string>,
): Promise<ApiAnswer> {
  const response = await app.inject({
    method,
    url: `/api${path}`,
    remoteAddress: request.ip,
    ...(payload ? { payload } : {}),
  });
  let body: unknown = null;
  if (response.body) {
    try {
      body = JSON.parse(response.body);
    } catch {
      body = null;
    }
  }
  const retryAfter = response.headers["retry-after"];
  return { status: response.statusCode, body, ...(retryAfter ? { retryAfter: String(retryAfter) } : {}) };
}

/** A path segment for a token taken from a page's URL (fastify hands it on decoded). */
export const segment = (value: string) => encodeURIComponent(value);
