import { describe, expect, it } from "vitest";
import { refreshCookieHeader, refreshTokenFrom } from "./refresh-cookie";

describe("refreshTokenFrom", () => {
  it("finds the refresh cookie among the Set-Cookie headers", () => {
    const headers = [
      "other=1; Path=/",
      "refresh_token=abc%2Bdef; Max-Age=1209600; Path=/api/token; HttpOnly; Secure; SameSite=Strict",
    ];
    expect(refreshTokenFrom(headers)).toBe("abc+def");
    expect(refreshTokenFrom(headers[1])).toBe("abc+def");
  });

  it("is null when the cookie is absent or cleared", () => {
    expect(refreshTokenFrom(undefined)).toBeNull();
    expect(refreshTokenFrom("other=1")).toBeNull();
    expect(refreshTokenFrom("refresh_token=; Max-Age=0; Path=/api/token")).toBeNull();
  });

  it("writes the Cookie header the token endpoints read", () => {
    expect(refreshCookieHeader("abc+def")).toBe("refresh_token=abc%2Bdef");
  });
});
