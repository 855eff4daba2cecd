import { describe, expect, it } from "vitest";
import { readIdempotencyKey } from "./idempotency-key";
import { requestFingerprint } from "./request-fingerprint";

describe("idempotency keys and request fingerprints", () => {
  it("reads 1 to 255 printable ASCII characters, and nothing when the header is absent", () => {
    expect(readIdempotencyKey(undefined)).toBeNull();
    expect(readIdempotencyKey("0f8b7c1e-4c1a-4e8e-9a7e-3b1d2c4e5f60")).toBe(
      "0f8b7c1e-4c1a-4e8e-9a7e-3b1d2c4e5f60",
    );
    expect(readIdempotencyKey("!")).toBe("!");
    expect(readIdempotencyKey("~".repeat(255))).toBe("~".repeat(255));
    for (const bad of ["", " ", "a b", "x".repeat(256), "é", "tab\there", "nul\u0000", ["a", "b"]])
      expect(() => readIdempotencyKey(bad), JSON.stringify(bad)).toThrow(/printable ASCII/);
  });

  it("gives one fingerprint to one request whatever its keys' order, and another to any other", () => {
    const base = requestFingerprint("POST", "/api/v1/budgets/", {
      name: "Rent",
      amount: "5.00",
      tags: ["a"],
    });
    expect(
      requestFingerprint("POST", "/api/v1/budgets/", { tags: ["a"], amount: "5.00", name: "Rent" }),
    ).toBe(base);
    expect(
      requestFingerprint("POST", "/api/v1/budgets/", {
        name: "Rent",
        amount: "5.00",
        tags: ["a"],
        memo: undefined,
      }),
    ).toBe(base);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    for (const other of [
      requestFingerprint("PUT", "/api/v1/budgets/", { name: "Rent", amount: "5.00", tags: ["a"] }),
      requestFingerprint("POST", "/api/v1/budgets/x/", { name: "Rent", amount: "5.00", tags: ["a"] }),
      requestFingerprint("POST", "/api/v1/budgets/", { name: "Rent", amount: "5.01", tags: ["a"] }),
      requestFingerprint("POST", "/api/v1/budgets/", { name: "Rent", amount: "5.00", tags: ["b"] }),
      requestFingerprint("POST", "/api/v1/budgets/", {
        name: "Rent",
        amount: "5.00",
        tags: ["a"],
        memo: null,
      }),
    ])
      expect(other).not.toBe(base);
  });
});
