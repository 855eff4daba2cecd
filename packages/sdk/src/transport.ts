import { setTimeout as sleep } from "node:timers/promises";
import type { RouteSpec } from "@allot/contract/http/route";
import { type Dispatcher, request } from "undici";
import { ApiError } from "./api-error";
import { requestParts } from "./request-parts";
import { parseRetryAfter } from "./retry-after";

export type Credentials = { bearer: string } | { apiKey: string };

export interface TransportOptions {
  /** The server's root, e.g. `http://127.0.0.1:3000`; routes are below `${baseUrl}/api`. */
  baseUrl: string;
  auth?: Credentials;
  /** How many times a 429 is retried after waiting its `Retry-After` (default 3). */
  retries?: number;
  /** A 429 asking for a longer wait than this is not retried but thrown (default 60). */
  maxRetryAfterSeconds?: number;
  /** undici dispatcher (a proxy agent, a test agent); the global one by default. */
  dispatcher?: Dispatcher;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** Extra request headers (e.g. `cookie`), added to the client's own. */
  headers?: Record<string, string>;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON; undefined for 204 and empty bodies. */
  body: unknown;
}

const DEFAULT_RETRIES = 3;
const DEFAULT_MAX_RETRY_AFTER_SECONDS = 60;
/** Without a Retry-After header: 1 s, 2 s, 4 s … */
const fallbackWaitSeconds = (attempt: number) => 2 ** attempt;

export type Transport = (route: RouteSpec, input: unknown, options?: RequestOptions) => Promise<RawResponse>;

/** Sends one route call: builds the request from the route spec, retries 429s, throws ApiError. */
export function createTransport(options: TransportOptions): Transport {
  const apiBase = `${options.baseUrl.replace(/\/+$/, "")}/api`;
  const retries = Math.max(0, options.retries ?? DEFAULT_RETRIES);
  const maxWait = options.maxRetryAfterSeconds ?? DEFAULT_MAX_RETRY_AFTER_SECONDS;
  const authorization = options.auth && authorizationHeader(options.auth);

  return async (route, input, requestOptions = {}) => {
    const parts = requestParts(route, input);
    const url = apiBase + parts.path;
    const headers: Record<string, string> = { accept: "application/json", ...requestOptions.headers };
    if (authorization) headers.authorization = authorization;
    if (parts.body) headers["content-type"] = "application/json";
    const body = parts.body && JSON.stringify(parts.body);

    for (let attempt = 0; ; attempt++) {
      const response = await request(url, {
        method: route.method,
        headers,
        body,
        signal: requestOptions.signal,
        dispatcher: options.dispatcher,
      });
      const parsed = await readBody(response);
      if (response.statusCode >= 200 && response.statusCode < 300) {
        if (parsed.ok) return { status: response.statusCode, headers: response.headers, body: parsed.value };
        throw new ApiError({ status: response.statusCode, body: parsed.value, method: route.method, url });
      }
      const retryAfter = parseRetryAfter(response.headers["retry-after"]);
      const error = new ApiError({
        status: response.statusCode,
        body: parsed.value,
        method: route.method,
        url,
        retryAfter,
      });
      const wait = retryAfter ?? fallbackWaitSeconds(attempt);
      if (response.statusCode !== 429 || attempt >= retries || wait > maxWait) throw error;
      await sleep(wait * 1000, undefined, { signal: requestOptions.signal });
    }
  };
}

function authorizationHeader(auth: Credentials): string {
  return "bearer" in auth ? `Bearer ${auth.bearer}` : `Api-Key ${auth.apiKey}`;
}

/** JSON when the body is JSON; `ok: false` with the raw text otherwise. Always drains the body. */
async function readBody(response: Dispatcher.ResponseData): Promise<{ ok: boolean; value: unknown }> {
  const text = await response.body.text();
  if (response.statusCode === 204 || text === "") return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, value: text };
  }
}
