import type { z } from "zod";
import type { ActivityEventType } from "../activity/activity-event-types";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Who may call an endpoint.
 * public: anyone (a bad credential is still 401, except on the token endpoints, which ignore the
 * Authorization header: a client refreshing usually still sends its expired token);
 * user: any authenticated caller;
 * interactive: a password login, never an API key (403); staff: interactive and is_staff.
 */
export type Access = "public" | "user" | "interactive" | "staff";

/**
 * What a request body may hold beyond the server's defaults (5 MB in all, no file parts): an
 * upload endpoint names its own bound here instead of raising everyone's.
 */
export interface BodyBounds {
  /** The whole body, as sent (multipart boundaries and headers included). */
  maxBytes?: number;
  /** File parts are accepted (multipart); elsewhere they are refused. */
  files?: boolean;
}

/**
 * Statuses a route answers beyond the ones every route may (400, 401, 403, 404, 413, 429; a keyed
 * write's 409 and 422): 409 where the state of other objects forbids the change, 410 where an old
 * change-feed cursor has expired. The OpenAPI document lists them.
 */
type ExtraStatus = 409 | 410;

/**
 * What a write records in the activity trail: the event types it may record, or why it records
 * none. The activity-coverage test holds every mutating route to it.
 */
type RouteEvents = readonly ActivityEventType[] | { none: string };

/**
 * How a token endpoint uses the `refresh_token` cookie: it reads the cookie the browser sends, and
 * its success sets one: a new session's (`issued`), the rotated one, or an expired one (`cleared`).
 */
export interface RefreshCookieUse {
  reads?: true;
  sets?: "issued" | "rotated" | "cleared";
}

/** One endpoint: the server validates with it, the OpenAPI document and the SDK are built from it. */
export interface RouteSpec<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  method: HttpMethod;
  /** Below `/api`, e.g. `/v1/bank-accounts/{id}/`; `{name}` segments come from the input. */
  path: string;
  status: 200 | 201 | 202 | 204;
  summary: string;
  /**
   * What the operation does beyond its summary: rules, side effects, refusals (the OpenAPI
   * description). Every contract route has one (openapi-document.http.test.ts); a route built on
   * the fly, like the SDK's raw request, need not.
   */
  description?: string;
  /** Keys of API_TAGS (tags.ts), where each is described. */
  tags: string[];
  access: Access;
  /** Body bounds above the defaults; most endpoints leave it out. */
  body?: BodyBounds;
  /**
   * The answer is a stored file's bytes with its own content type, not JSON: served by a plain
   * fastify route behind the same route table and authentication (`output` describes nothing).
   */
  download?: true;
  errors?: readonly ExtraStatus[];
  /** Every route that is not a GET or a read says what it records (or why nothing). */
  events?: RouteEvents;
  /**
   * A POST that only reads (a query too large or structured for a query string): it takes no
   * Idempotency-Key and records nothing.
   */
  reads?: true;
  refreshCookie?: RefreshCookieUse;
  /**
   * The OpenAPI operation id, where it is not `<area>-<key>`: an id published before the keys became
   * the SDK's names stays as it was, for clients generated from the document.
   */
  operationId?: string;
  input: I;
  output: O;
}

/** A route, its `access` kept as written: the API binds a public route's use case without an actor. */
export const defineRoute = <I extends z.ZodType, O extends z.ZodType, A extends Access>(
  spec: RouteSpec<I, O> & { access: A },
) => spec;

/** An authenticated write: it takes an Idempotency-Key (docs/spec/extensions.md §1). */
export const takesIdempotencyKey = (route: Pick<RouteSpec, "method" | "access" | "reads">) =>
  route.access !== "public" && route.method !== "GET" && !route.reads;

/** The path parameter names of a route, in order. */
export const pathParameters = (path: string): string[] =>
  Array.from(path.matchAll(/\{(\w+)\}/g), (m) => m[1] as string);

/** What a route's use case is called with: its input as the contract parsed it. */
export type RouteInput<R extends RouteSpec> = z.output<R["input"]>;
