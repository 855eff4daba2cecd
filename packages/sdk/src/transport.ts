import { setTimeout as sleep } from "node:timers/promises";
import { requestParts } from "@allot/contract/http/request-parts";
import type { RouteSpec } from "@allot/contract/http/route";
import { type Dispatcher, request } from "undici";
import { ApiError } from "./api-error";
import { fileDownloadOf } from "./file-download";
import { holdsFileUpload } from "./file-upload";
import { IDEMPOTENCY_KEY_HEADER, idempotencyKeyFor, markWithKey, withoutKeyHeader } from "./idempotency-key";
import { multipartForm } from "./multipart-form";
import { parseRetryAfter } from "./retry-after";
import { isRefusedForNow, type RetryPolicy, resetRetryDelay, retryAfterDelay } from "./retry-policy";

export interface TransportOptions {
  /** The server's root, e.g. `http://127.0.0.1:3000`; routes are below `${baseUrl}/api`. */
  baseUrl: string;
  /**
   * Retries after the first attempt (default 3), for 429s, 409s whose key is still in progress,
   * and connection resets (idempotent methods, and writes carrying an Idempotency-Key).
   */
  retries?: number;
  /** A 429 (or 409 key in progress) asking for a longer wait than this is thrown, not retried (default 60). */
  maxRetryAfterSeconds?: number;
  /** undici dispatcher (a proxy agent, a test agent); the global one by default. */
  dispatcher?: Dispatcher;
  /**
   * Called once before each wait for a retry, so a program can say why it is waiting (a CLI: "rate
   * limited by the server: retrying in 12 s"). It must not throw.
   */
  onRetry?: (notice: RetryNotice) => void;
}

/** One retry about to be waited for. */
export interface RetryNotice {
  /**
   * `throttled`: a 429; `key_in_progress`: a 409 whose Idempotency-Key's first attempt still runs;
   * `connection_reset`: the connection died before an answer.
   */
  reason: "throttled" | "key_in_progress" | "connection_reset";
  /** How long the call waits before it is resent. */
  delayMs: number;
  /** Which retry this is: 1 for the first. */
  retry: number;
  method: string;
  url: string;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** Extra request headers (e.g. `cookie`), added to the client's own. */
  headers?: Record<string, string>;
  /**
   * The `Idempotency-Key` of a write (an authenticated POST, PUT, PATCH or DELETE); a fresh UUID
   * when left out. Pass your own to resend the same write later — after a crash, or after the SDK
   * gave up — and have the server answer the first one's result instead of applying it twice.
   * Ignored on GETs and public routes, which take none.
   */
  idempotencyKey?: string;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON; undefined for 204 and empty bodies; a `FileDownload` from a download route. */
  body: unknown;
}

const DEFAULT_RETRIES = 3;
const DEFAULT_MAX_RETRY_AFTER_SECONDS = 60;

export type Transport = (route: RouteSpec, input: unknown, options?: RequestOptions) => Promise<RawResponse>;

/** Where the routes are: `${baseUrl}/api`, without a doubled slash. */
export const apiBaseOf = (baseUrl: string) => `${baseUrl.replace(/\/+$/, "")}/api`;

/** Sends one route call: builds the request from the route spec, retries what is safe, throws ApiError. */
export function createTransport(options: TransportOptions): Transport {
  const apiBase = apiBaseOf(options.baseUrl);
  const policy: RetryPolicy = {
    retries: Math.max(0, options.retries ?? DEFAULT_RETRIES),
    maxRetryAfterSeconds: options.maxRetryAfterSeconds ?? DEFAULT_MAX_RETRY_AFTER_SECONDS,
  };

  return async (route, input, requestOptions = {}) => {
    const parts = requestParts(route, input);
    const url = apiBase + parts.path;
    // One key for every attempt of this call: a resend is then the same request to the server.
    const idempotencyKey = idempotencyKeyFor(route, requestOptions);
    const headers: Record<string, string> = {
      // A download answers the file's own type (its errors are JSON all the same).
      accept: route.download ? "*/*" : "application/json",
      ...withoutKeyHeader(requestOptions.headers),
    };
    if (idempotencyKey !== null) headers[IDEMPOTENCY_KEY_HEADER] = idempotencyKey;
    // A body holding a file is a form, whose content type (with its boundary) undici sets.
    const body =
      parts.body &&
      (holdsFileUpload(parts.body) ? await multipartForm(parts.body) : JSON.stringify(parts.body));
    if (typeof body === "string") headers["content-type"] = "application/json";
    const { signal } = requestOptions;
    // Whatever ends the call (an abort mid-wait included) names the key a later resend should reuse.
    const notify = (reason: RetryNotice["reason"], delayMs: number, attempt: number) =>
      options.onRetry?.({ reason, delayMs, retry: attempt + 1, method: route.method, url });
    const wait = (ms: number) =>
      sleep(ms, undefined, { signal }).catch((error: unknown) => {
        throw markWithKey(error, idempotencyKey);
      });

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
        // A file is handed over unread, to be streamed by the caller.
        if (route.download && isSuccess(response.statusCode))
          return { status: response.statusCode, headers: response.headers, body: fileDownloadOf(response) };
        parsed = await readBody(response);
      } catch (error) {
        const carriesKey = idempotencyKey !== null;
        const delay = signal?.aborted
          ? null
          : resetRetryDelay(route.method, carriesKey, error, attempt, policy);
        if (delay === null) throw markWithKey(error, idempotencyKey);
        notify("connection_reset", delay, attempt);
        await wait(delay);
        continue;
      }
      if (isSuccess(response.statusCode)) {
        if (parsed.ok) return { status: response.statusCode, headers: response.headers, body: parsed.value };
        throw new ApiError({
          status: response.statusCode,
          body: parsed.value,
          method: route.method,
          url,
          idempotencyKey,
        });
      }
      const retryAfter = parseRetryAfter(response.headers["retry-after"]);
      const error = new ApiError({
        status: response.statusCode,
        body: parsed.value,
        method: route.method,
        url,
        retryAfter,
        idempotencyKey,
      });
      const delay = isRefusedForNow(response.statusCode, parsed.value, idempotencyKey !== null)
        ? retryAfterDelay(retryAfter, attempt, policy)
        : null;
      if (delay === null) throw error;
      notify(response.statusCode === 429 ? "throttled" : "key_in_progress", delay, attempt);
      await wait(delay);
    }
  };
}

const isSuccess = (status: number) => status >= 200 && status < 300;

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
