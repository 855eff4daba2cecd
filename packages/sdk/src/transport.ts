import { setTimeout as sleep } from "node:timers/promises";
import { requestParts } from "@allot/contract/http/request-parts";
import type { RouteSpec } from "@allot/contract/http/route";
import { type Dispatcher, request } from "undici";
import { ApiError } from "./api-error";
import { parseRetryAfter } from "./retry-after";
import { type RetryPolicy, resetRetryDelay, throttledRetryDelay } from "./retry-policy";

export interface TransportOptions {
  /** The server's root, e.g. `http://127.0.0.1:3000`; routes are below `${baseUrl}/api`. */
  baseUrl: string;
  /** Retries after the first attempt, for 429s and (idempotent methods) connection resets (default 3). */
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

export type Transport = (route: RouteSpec, input: unknown, options?: RequestOptions) => Promise<RawResponse>;

/** Sends one route call: builds the request from the route spec, retries what is safe, throws ApiError. */
export function createTransport(options: TransportOptions): Transport {
  const apiBase = `${options.baseUrl.replace(/\/+$/, "")}/api`;
  const policy: RetryPolicy = {
    retries: Math.max(0, options.retries ?? DEFAULT_RETRIES),
    maxRetryAfterSeconds: options.maxRetryAfterSeconds ?? DEFAULT_MAX_RETRY_AFTER_SECONDS,
  };

  return async (route, input, requestOptions = {}) => {
    const parts = requestParts(route, input);
    const url = apiBase + parts.path;
    const headers: Record<string, string> = { accept: "application/json", ...requestOptions.headers };
    if (parts.body) headers["content-type"] = "application/json";
    const body = parts.body && JSON.stringify(parts.body);
    const { signal } = requestOptions;

    for (let attempt = 0; ; attempt++) {
      let response: Dispatcher.ResponseData;
      let parsed: { ok: boolean; value: unknown };
      try {
        response = await request(url, {
          method: route.method,
          headers,
          body,
          signal,
          dispatcher: options.dispatcher,
        });
        parsed = await readBody(response);
      } catch (error) {
        const delay = signal?.aborted ? null : resetRetryDelay(route.method, error, attempt, policy);
        if (delay === null) throw error;
        await sleep(delay, undefined, { signal });
        continue;
      }
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
      const delay = response.statusCode === 429 ? throttledRetryDelay(retryAfter, attempt, policy) : null;
      if (delay === null) throw error;
      await sleep(delay, undefined, { signal });
    }
  };
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
