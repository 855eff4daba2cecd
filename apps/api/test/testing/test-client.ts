import { requestParts } from "@allot/contract/http/request-parts";
import type { RouteSpec } from "@allot/contract/http/route";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import type { z } from "zod";

type AnyRoute = RouteSpec<z.ZodType, z.ZodType>;

/** What a test sends: the contract's input before parsing (`page: "2"` or `2`), path parameters included. */
export type CallInput<R extends AnyRoute> = z.input<R["input"]>;
/** What the route answers on success. */
export type CallOutput<R extends AnyRoute> = z.output<R["output"]>;

interface CallOptions {
  /** Sent beside (and over) the caller's `Authorization`. */
  headers?: Record<string, string>;
  /** Cookies sent with the request (the refresh token's). */
  cookies?: Record<string, string>;
  /** The client's address as the socket reports it (throttles count per network). */
  remoteAddress?: string;
}

/** The inject response, its `json()` typed as the route's output; `json<T>()` reads an error body. */
export interface RouteResponse<R extends AnyRoute> extends Omit<LightMyRequestResponse, "json"> {
  json<T = CallOutput<R>>(): T;
}

/** `(input, options?)`, the input optional when every field of it is. */
type CallArgs<R extends AnyRoute> =
  Record<string, never> extends CallInput<R>
    ? [input?: CallInput<R>, options?: CallOptions]
    : [input: CallInput<R>, options?: CallOptions];

/** Calls contract routes as one caller (a user, an API key, nobody) through `app.inject`. */
export interface RouteCaller {
  call<R extends AnyRoute>(route: R, ...args: CallArgs<R>): Promise<RouteResponse<R>>;
  /**
   * The same request built from an input the contract's types refuse: validation tests send what a
   * client should not. Malformed HTTP (bad JSON, content types, odd paths) stays with `t.inject`.
   */
  callUnchecked<R extends AnyRoute>(
    route: R,
    input: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<RouteResponse<R>>;
}

/** Who calls: a logged-in test user, an `Authorization` header value (an API key), or nobody. */
export type Caller = { bearer: string } | string | null;

export function routeCaller(
  inject: (options: InjectOptions) => Promise<LightMyRequestResponse>,
  caller: Caller,
): RouteCaller {
  const authorization = caller === null ? undefined : typeof caller === "string" ? caller : caller.bearer;
  const send = async <R extends AnyRoute>(route: R, input: unknown, options: CallOptions = {}) => {
    const { path, body } = requestParts(route, input);
    const headers = { ...(authorization ? { authorization } : {}), ...options.headers };
    // A JSON body on POST, PUT and PATCH, `{}` when the input is all path: what the SDK sends.
    const response = await inject({
      method: route.method,
      url: `/api${path}`,
      headers,
      payload: body,
      ...(options.cookies ? { cookies: options.cookies } : {}),
      ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
    });
    return response as RouteResponse<R>;
  };
  return {
    call: (route, ...[input, options]) => send(route, input, options),
    callUnchecked: send,
  };
}

/**
 * `app.inject` over a real socket to a listening server (`await app.listen(...)` gives `baseUrl`),
 * for `routeCaller` when the requests must really run at once: tests read the status and the body
 * (`body`, `json()`); it sends no cookies nor a remote address.
 */
export function fetchInject(baseUrl: string) {
  return async (options: InjectOptions): Promise<LightMyRequestResponse> => {
    if (options.cookies || options.remoteAddress)
      throw new Error("fetchInject: no cookies nor remoteAddress");
    const { payload } = options;
    const response = await fetch(`${baseUrl}${options.url}`, {
      method: options.method,
      headers: {
        ...(options.headers as Record<string, string>),
        ...(payload === undefined ? {} : { "content-type": "application/json" }),
      },
      body: payload === undefined ? undefined : JSON.stringify(payload),
    });
    const body = await response.text();
    const answer = { statusCode: response.status, body, payload: body, json: () => JSON.parse(body) };
    return answer as unknown as LightMyRequestResponse;
  };
}
