import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { readIdempotencyKey } from "./idempotency-key";
import { requestDigest } from "./request-fingerprint";

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

  it("gives one fingerprint to one parsed request whatever its keys' order as sent, and another to any other", () => {
    // The contract parses first: its objects come out in the schema's key order.
    const schema = z.object({
      name: z.string(),
      amount: z.string(),
      tags: z.array(z.string()),
      memo: z.string().nullish(),
    });
    const fingerprint = (method: string, path: string, body: unknown) =>
      requestDigest(method, path, schema.parse(body));
    const base = fingerprint("POST", "/api/v1/budgets/", { name: "Rent", amount: "5.00", tags: ["a"] });
    expect(fingerprint("POST", "/api/v1/budgets/", { tags: ["a"], amount: "5.00", name: "Rent" })).toBe(base);
    expect(
      fingerprint("POST", "/api/v1/budgets/", { name: "Rent", amount: "5.00", tags: ["a"], memo: undefined }),
    ).toBe(base);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    for (const other of [
      fingerprint("PUT", "/api/v1/budgets/", { name: "Rent", amount: "5.00", tags: ["a"] }),
      fingerprint("POST", "/api/v1/budgets/x/", { name: "Rent", amount: "5.00", tags: ["a"] }),
      fingerprint("POST", "/api/v1/budgets/", { name: "Rent", amount: "5.01", tags: ["a"] }),
      fingerprint("POST", "/api/v1/budgets/", { name: "Rent", amount: "5.00", tags: ["b"] }),
      fingerprint("POST", "/api/v1/budgets/", { name: "Rent", amount: "5.00", tags: ["a"], memo: null }),
    ])
      expect(other).not.toBe(base);
  });

  it("counts a password field by its presence only: its value is in no digest, however it is guessed", () => {
    const change = (current: string, next: string) =>
      requestDigest("POST", "/api/v1/users/me/password/", {
        current_password: current,
        new_password: next,
        confirm_password: next,
      });
    const digest = change("old secret 1", "new secret 2");
    expect(change("another", "entirely")).toBe(digest);
    expect(requestDigest("POST", "/api/v1/auth/login/", { email: "a@b.c", password: "x" })).toBe(
      requestDigest("POST", "/api/v1/auth/login/", { email: "a@b.c", password: "y" }),
    );
    // What a digest of the body with its passwords would have been: none of them is this one.
    const withPasswords = createHash("sha256")
      .update(
        JSON.stringify([
          "POST",
          "/api/v1/users/me/password/",
          {
            current_password: "old secret 1",
            new_password: "new secret 2",
            confirm_password: "new secret 2",
          },
        ]),
      )
      .digest("hex");
    expect(digest).not.toBe(withPasswords);
    // Other fields still count, and a field merely containing the word is kept.
    expect(requestDigest("POST", "/p/", { password_hint: "a" })).not.toBe(
      requestDigest("POST", "/p/", { password_hint: "b" }),
    );
  });
});
