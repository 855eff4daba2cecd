import { describe, expect, it } from "vitest";
import { isConnectionReset, resetRetryDelay, throttledRetryDelay } from "./retry-policy";

const policy = { retries: 2, maxRetryAfterSeconds: 60 };
const reset = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });

describe("throttledRetryDelay", () => {
  it.each([
    [1, 0, 1000],
    [0, 1, 0],
    [null, 0, 1000],
    [null, 1, 2000],
    [60, 0, 60_000],
    [61, 0, null],
    [1, 2, null],
  ])("Retry-After %s on attempt %s → %s ms", (retryAfter, attempt, expected) => {
    expect(throttledRetryDelay(retryAfter, attempt, policy)).toBe(expected);
  });
});

describe("resetRetryDelay", () => {
  it.each(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"])("retries %s after a reset", (method) => {
    expect(resetRetryDelay(method, reset, 0, policy)).toBe(50);
    expect(resetRetryDelay(method, reset, 1, policy)).toBe(100);
    expect(resetRetryDelay(method, reset, 2, policy)).toBeNull();
  });

  it.each(["POST", "PATCH"])("never retries %s: it may have been applied", (method) => {
    expect(resetRetryDelay(method, reset, 0, policy)).toBeNull();
  });

  it("does not retry errors that are not resets", () => {
    expect(resetRetryDelay("GET", new Error("boom"), 0, policy)).toBeNull();
    expect(
      resetRetryDelay("GET", Object.assign(new Error("refused"), { code: "ECONNREFUSED" }), 0, policy),
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
