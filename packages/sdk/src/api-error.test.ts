import { describe, expect, expectTypeOf, it } from "vitest";
import { ApiError, isApiError, isValidationError } from "./api-error";

const at = { method: "POST", url: "http://x/api/v1/budgets/" };

describe("ApiError", () => {
  it("takes the spec's error body apart: detail and code", () => {
    const error = new ApiError({ ...at, status: 404, body: { detail: "Not found.", code: "not_found" } });
    expect(error).toMatchObject({ status: 404, code: "not_found", detail: "Not found.", fields: null });
    expect(error.message).toBe("POST http://x/api/v1/budgets/ failed with 404 not_found: Not found.");
  });

  it("reads a field map as a validation error, with the messages in one line", () => {
    const body = { name: ["This field is required."], amount: ["Too big.", "Not a number."] };
    const error = new ApiError({ ...at, status: 400, body });
    expect(error).toMatchObject({ code: "invalid", fields: body });
    expect(error.detail).toBe("name: This field is required.; amount: Too big. Not a number.");
  });
});

describe("isApiError and isValidationError", () => {
  const invalid: unknown = new ApiError({ ...at, status: 400, body: { name: ["Required."] } });
  const badRequest: unknown = new ApiError({
    ...at,
    status: 400,
    body: { detail: "Bad JSON.", code: "parse_error" },
  });
  const missing: unknown = new ApiError({ ...at, status: 404, body: { detail: "Not found." } });

  it("narrows by status, and to a non-null field map", () => {
    expect(isApiError(missing)).toBe(true);
    expect(isApiError(missing, 404)).toBe(true);
    expect(isApiError(missing, 400)).toBe(false);
    expect(isApiError(new Error("network"))).toBe(false);
    expect(isApiError(null)).toBe(false);
    expect(isValidationError(invalid)).toBe(true);
    expect(isValidationError(badRequest)).toBe(false);
    expect(isValidationError(missing)).toBe(false);
    if (isValidationError(invalid)) {
      expectTypeOf(invalid.fields).toEqualTypeOf<Record<string, string[]>>();
      expectTypeOf(invalid.status).toEqualTypeOf<400>();
      expect(invalid.fields.name).toEqual(["Required."]);
    }
  });

  it("recognises an ApiError from another copy of the SDK, where instanceof fails", () => {
    const { fields, status, code } = invalid as ApiError;
    const foreign = Object.assign(new Error("copy"), { fields, status, code });
    Object.defineProperty(foreign, Symbol.for("@allot/sdk/ApiError"), { value: true });
    expect(foreign instanceof ApiError).toBe(false);
    expect(isValidationError(foreign)).toBe(true);
  });
});
