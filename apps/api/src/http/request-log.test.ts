import { describe, expect, it } from "vitest";
import { maskTokenPaths } from "./request-log";

describe("maskTokenPaths", () => {
  it.each([
    ["/links/password-reset/s3cr3t", "/links/password-reset/[masked]"],
    ["/links/email-change/s3cr3t/confirm", "/links/email-change/[masked]/confirm"],
    ["/links/invitations/s3cr3t/accept?x=1", "/links/invitations/[masked]/accept?x=1"],
    ["/api/v1/password-reset/s3cr3t/confirm/", "/api/v1/password-reset/[masked]/confirm/"],
    ["/api/v1/users/me/change-email/s3cr3t/revoke/", "/api/v1/users/me/change-email/[masked]/revoke/"],
    ["/api/v1/invitations/s3cr3t/", "/api/v1/invitations/[masked]/"],
    ["/api/v1/invitations/s3cr3t", "/api/v1/invitations/[masked]"],
    [
      "/api/v1/bank-accounts/0b7c/invitations/s3cr3t/cancel/",
      "/api/v1/bank-accounts/0b7c/invitations/[masked]/cancel/",
    ],
    [
      "Route POST:/api/v1/invitations/s3cr3t/decline/ failed",
      "Route POST:/api/v1/invitations/[masked]/decline/ failed",
    ],
  ])("%s", (text, masked) => {
    expect(maskTokenPaths(text)).toBe(masked);
  });

  it("leaves paths without tokens alone", () => {
    for (const path of [
      "/api/v1/password-reset/",
      "/api/v1/bank-accounts/0b7c/invitations/",
      "/api/v1/users/me/",
    ])
      expect(maskTokenPaths(path)).toBe(path);
  });
});
