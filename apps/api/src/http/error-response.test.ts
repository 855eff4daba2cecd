import {
  Conflict,
  Forbidden,
  NotFound,
  Throttled,
  Unauthenticated,
  ValidationFailed,
} from "@allot/domain/shared/errors";
import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { toErrorResponse } from "./error-response";

/** A database error as the procedure sees it: PostgreSQL's under drizzle's wrapper under tRPC's. */
const fromDatabase = (code: string) =>
  new TRPCError({
    code: "INTERNAL_SERVER_ERROR",
    cause: Object.assign(new Error("Failed query"), { cause: Object.assign(new Error("pg"), { code }) }),
  });

describe("toErrorResponse for domain errors", () => {
  const thrown = (error: Error) => new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: error });

  it.each([
    [new NotFound(), 404, { detail: "Not found.", code: "not_found" }],
    [new Unauthenticated(), 401, { detail: expect.any(String), code: "not_authenticated" }],
    [new Forbidden("No.", "unallocated_budget"), 403, { detail: "No.", code: "unallocated_budget" }],
    [new Conflict("Taken.", "duplicate"), 409, { detail: "Taken.", code: "duplicate" }],
    [new Throttled(7), 429, { detail: expect.stringContaining("7 seconds"), code: "throttled" }],
    [ValidationFailed.on("name", "Too long."), 400, { name: ["Too long."] }],
  ])("answers %o with its kind's status and its code", (error, status, body) => {
    expect(toErrorResponse(thrown(error))).toMatchObject({ status, body });
  });

  it("tells the client when to retry a throttled request", () => {
    expect(toErrorResponse(thrown(new Throttled(7))).headers).toEqual({ "retry-after": "7" });
  });
});

describe("toErrorResponse for database errors", () => {
  it.each([
    ["22003", "The amount would take a balance past 12 integer digits."],
    ["22021", "Null characters are not allowed."],
    ["22P05", "Null characters are not allowed."],
    ["22007", "A date is outside the supported range, 0100-01-02 to 9999-12-29."],
    ["22008", "A date is outside the supported range, 0100-01-02 to 9999-12-29."],
    ["22009", "A date is outside the supported range, 0100-01-02 to 9999-12-29."],
  ])("SQLSTATE %s is the caller's: 400", (code, message) => {
    expect(toErrorResponse(fromDatabase(code))).toEqual({
      status: 400,
      body: { non_field_errors: [message] },
    });
  });

  it.each(["23503", "22012", "42P01"])("SQLSTATE %s stays a 500", (code) => {
    expect(toErrorResponse(fromDatabase(code)).status).toBe(500);
  });

  it.each([
    ["40001", "The request collided with other changes to the same data; try again."],
    ["40P01", "The request collided with other changes to the same data; try again."],
    ["57P01", "The database is unavailable; try again shortly."],
    ["57P03", "The database is unavailable; try again shortly."],
    ["08006", "The database is unavailable; try again shortly."],
    ["53300", "The database is unavailable; try again shortly."],
    ["CONNECTION_CLOSED", "The database is unavailable; try again shortly."],
    ["ECONNREFUSED", "The database is unavailable; try again shortly."],
  ])("%s is a 503 with Retry-After", (code, detail) => {
    expect(toErrorResponse(fromDatabase(code))).toEqual({
      status: 503,
      body: { detail, code: "service_unavailable" },
      headers: { "retry-after": "5" },
    });
  });

  it("finds a refused connection inside the AggregateError of a failed connect", () => {
    const refused = new AggregateError([
      Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
    ]);
    expect(toErrorResponse(new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: refused })).status).toBe(
      503,
    );
  });
});
