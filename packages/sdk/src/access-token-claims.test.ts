import { describe, expect, it } from "vitest";
import { secondsUntilExpiry, subjectOf } from "./access-token-claims";

const jwt = (payload: unknown) =>
  `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify(payload)).toString("base64url")}.signature`;

describe("secondsUntilExpiry", () => {
  const now = 1_700_000_000_000;

  it("reads exp from the payload", () => {
    expect(secondsUntilExpiry(jwt({ exp: 1_700_000_090 }), now)).toBe(90);
    expect(secondsUntilExpiry(jwt({ exp: 1_699_999_990 }), now)).toBe(-10);
  });

  it.each([["not-a-jwt"], [jwt({ sub: "1" })], [jwt("text")], ["a.%%%.b"], [""]])(
    "is null for %s (no readable exp)",
    (token) => {
      expect(secondsUntilExpiry(token, now)).toBeNull();
    },
  );
});

describe("subjectOf", () => {
  it("reads sub from the payload: the user the token is for", () => {
    expect(subjectOf(jwt({ sub: "42", exp: 1 }))).toBe("42");
  });

  it.each([["not-a-jwt"], [jwt({ exp: 1 })], [jwt({ sub: 42 })], [jwt({ sub: "" })], [jwt(null)], [""]])(
    "is null for %s (no readable sub)",
    (token) => {
      expect(subjectOf(token)).toBeNull();
    },
  );
});
