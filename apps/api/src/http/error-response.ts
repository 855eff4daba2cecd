import { FIRST_DAY, LAST_DAY } from "@allot/contract/http/fields";
import { pathParameters, type RouteSpec } from "@allot/contract/http/route";
import { isDatabaseUnavailable, isTransientConflict, sqlState } from "@allot/db/database-errors";
import { DomainError, type DomainErrorKind, ValidationFailed } from "@allot/domain/shared/errors";
import { fieldErrors } from "@allot/domain/shared/validation";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { ThrottleStoreUnavailable } from "../throttle/throttle-store";

export interface ErrorResponse {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** The status of each kind of domain error: the only place a domain refusal becomes HTTP. */
const STATUS_OF: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unprocessable: 422,
  gone: 410,
  throttled: 429,
};

// trpc-to-openapi's own failures, before our code runs.
const TRPC_CODES: Record<string, { status: number; code: string; detail?: string }> = {
  PARSE_ERROR: { status: 400, code: "parse_error", detail: "Malformed request body." },
  UNSUPPORTED_MEDIA_TYPE: { status: 400, code: "unsupported_media_type" },
  PAYLOAD_TOO_LARGE: { status: 413, code: "request_too_large" },
  NOT_FOUND: { status: 404, code: "not_found", detail: "Not found." },
  METHOD_NOT_SUPPORTED: { status: 405, code: "method_not_allowed" },
};

const OUT_OF_RANGE_DATE = `A date is outside the supported range, ${FIRST_DAY} to ${LAST_DAY}.`;
const NUL_TEXT = "Null characters are not allowed.";

/**
 * A safety net behind the contract: PostgreSQL refusing a value the caller sent is a 400, not a
 * 500. The use case's transaction has rolled back, so nothing was written.
 */
const CALLER_SQL_STATES: Record<string, string> = {
  "22003": "The amount would take a balance past 12 integer digits.", // numeric_value_out_of_range
  "22021": NUL_TEXT, // character_not_in_repertoire (postgres.js, PGlite)
  "22P05": NUL_TEXT, // untranslatable_character
  "22007": OUT_OF_RANGE_DATE, // invalid_datetime_format, e.g. the ISO text of year 10000
  "22008": OUT_OF_RANGE_DATE, // datetime_field_overflow, e.g. year 0000
  "22009": OUT_OF_RANGE_DATE, // invalid_time_zone_displacement_value: how PGlite reads "+010000-…"
};

/** Every error the API answers with, in the shapes of docs/spec/operations.md: one place for all of them. */
export function toErrorResponse(error: unknown, route?: RouteSpec): ErrorResponse {
  const cause = error instanceof TRPCError && error.cause ? error.cause : error;

  if (cause instanceof ValidationFailed) return { status: STATUS_OF[cause.kind], body: cause.fields };
  if (cause instanceof DomainError)
    return {
      status: STATUS_OF[cause.kind],
      body: { detail: cause.message, code: cause.code },
      ...(cause.retryAfterSeconds === undefined
        ? {}
        : { headers: { "retry-after": String(cause.retryAfterSeconds) } }),
    };
  if (cause instanceof z.ZodError) return fromZodError(cause, route);

  if (error instanceof TRPCError && TRPC_CODES[error.code]) {
    const known = TRPC_CODES[error.code] as { status: number; code: string; detail?: string };
    return { status: known.status, body: { detail: known.detail ?? error.message, code: known.code } };
  }
  const callerFault = CALLER_SQL_STATES[sqlState(error) ?? ""];
  if (callerFault) return { status: 400, body: { non_field_errors: [callerFault] } };
  const refusal = unavailable(error);
  if (refusal) return refusal;
  const fastifyStatus = (error as { statusCode?: unknown }).statusCode;
  if (typeof fastifyStatus === "number" && fastifyStatus >= 400 && fastifyStatus < 500) {
    return fromFastifyError(error as Error & { statusCode: number; code?: string });
  }
  return { status: 500, body: { detail: "Internal server error.", code: "server_error" } };
}

/**
 * The database or Redis (the throttle counters) restarting or unreachable, or a write conflict
 * that kept coming back after the transaction's retries: nothing was committed (or, for a
 * connection lost mid-commit, the client cannot know), so the caller is told to come back
 * shortly instead of seeing a 500.
 */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

function unavailable(error: unknown): ErrorResponse | null {
  const detail =
    error instanceof ThrottleStoreUnavailable
      ? "The service is unavailable; try again shortly."
      : isTransientConflict(error)
        ? "The request collided with other changes to the same data; try again."
        : isDatabaseUnavailable(error)
          ? "The database is unavailable; try again shortly."
          : null;
  if (!detail) return null;
  return {
    status: 503,
    body: { detail, code: "service_unavailable" },
    headers: { "retry-after": String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
  };
}

function fromZodError(error: z.ZodError, route?: RouteSpec): ErrorResponse {
  const pathNames = new Set(route ? pathParameters(route.path) : []);
  // A malformed id in the path names no object: that is "not found", not a field error.
  if (error.issues.some((issue) => pathNames.has(String(issue.path[0])))) {
    return { status: 404, body: { detail: "Not found.", code: "not_found" } };
  }
  return { status: 400, body: fieldErrors(error.issues) };
}

function fromFastifyError(error: Error & { statusCode: number; code?: string }): ErrorResponse {
  switch (error.code) {
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return {
        status: 400,
        body: {
          detail:
            "Unsupported content type: send application/json, application/x-www-form-urlencoded or multipart/form-data.",
          code: "unsupported_media_type",
        },
      };
    case "FST_ERR_CTP_BODY_TOO_LARGE":
    case "FST_REQ_FILE_TOO_LARGE":
      return { status: 413, body: { detail: "Request body is too large.", code: "request_too_large" } };
    default:
      return {
        status: error.statusCode,
        body: {
          detail: error.message,
          code: (error.code ?? "bad_request").replace(/^FST_ERR_/, "").toLowerCase(),
        },
      };
  }
}
