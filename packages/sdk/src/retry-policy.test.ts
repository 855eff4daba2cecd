import { describe, expect, it } from "vitest";
import { isConnectionReset, isRefusedForNow, resetRetryDelay, retryAfterDelay } from "./retry-policy";

const policy = { retries: 2, maxRetryAfterSeconds: 60 };
const reset = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });

describe("retryAfterDelay", () => {
  it.each([
    [1, 0, 1000],
    [0, 1, 0],
    [null, 0, 1000],
    [null, 1, 2000],
    [60, 0, 60_000],
    [61, 0, null],
    [1, 2, null],
  ])("Retry-After %s on attempt %s → %s ms", (retryAfter, attempt, expected) => {
    expect(retryAfterDelay(retryAfter, attempt, policy)).toBe(expected);
  });
});

describe("isRefusedForNow", () => {
  const inProgress = {
    detail: "A request with this key is in progress.",
    code: "idempotency_key_in_progress",
  };

  it("waits out a 429 whatever the request carried", () => {
    expect(isRefusedForNow(429, { code: "throttled" }, false)).toBe(true);
  });

  it("waits out a 409 whose key is still in progress, when the request carried a key", () => {
    expect(isRefusedForNow(409, inProgress, true)).toBe(true);
    expect(isRefusedForNow(409, inProgress, false)).toBe(false);
  });

  it("throws any other answer, a reused key included", () => {
    expect(isRefusedForNow(409, { detail: "Taken.", code: "conflict" }, true)).toBe(false);
    expect(isRefusedForNow(422, { detail: "Reused.", code: "idempotency_key_reused" }, true)).toBe(false);
    expect(isRefusedForNow(409, "<h1>Conflict</h1>", true)).toBe(false);
    expect(isRefusedForNow(503, undefined, true)).toBe(false);
  });
});

describe("resetRetryDelay", () => {
  it.each(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"])("retries %s after a reset, key or not", (method) => {
    expect(resetRetryDelay(method, false, reset, 0, policy)).toBe(50);
    expect(resetRetryDelay(method, false, reset, 1, policy)).toBe(100);
    expect(resetRetryDelay(method, false, reset, 2, policy)).toBeNull();
  });

  it.each(["POST", "PATCH"])("retries %s after a reset when it carries an Idempotency-Key", (method) => {
    expect(resetRetryDelay(method, true, reset, 0, policy)).toBe(50);
    expect(resetRetryDelay(method, true, reset, 1, policy)).toBe(100);
    expect(resetRetryDelay(method, true, reset, 2, policy)).toBeNull();
  });

  it.each(["POST", "PATCH"])("never retries %s without a key: it may have been applied", (method) => {
    expect(resetRetryDelay(method, false, reset, 0, policy)).toBeNull();
  });

  it("does not retry errors that are not resets", () => {
    expect(resetRetryDelay("GET", false, new Error("boom"), 0, policy)).toBeNull();
    expect(resetRetryDelay("POST", true, new Error("boom"), 0, policy)).toBeNull();
    expect(
      resetRetryDelay("GET", false, Object.assign(new Error("refused"), { code: "ECONNREFUSED" }), 0, policy),
    ).toBeNull();
  });
});

describe("isConnectionReset", () => {
  it("finds the code on the error or down its causes", () => {
    expect(isConnectionReset(Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }))).toBe(
      true,
    );
    expect(isConnectionReset(new TypeError("fetch failed", { cause: reset }))).toBe(true);
    expect(isConnectionReset(new Error("no code"))).toBe(false);
    expect(isConnectionReset(undefined)).toBe(false);
  });
});
