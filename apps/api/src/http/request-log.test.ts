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

  // Spelled another way, a path is shown as read (decoded, dot segments resolved), its token masked.
  it.each([
    ["/api/v1/password%2Dreset/s3cr3t/confirm/", "/api/v1/password-reset/[masked]/confirm/"],
    ["/api/v1/password%252dreset/s3cr3t/confirm/", "/api/v1/password-reset/[masked]/confirm/"],
    ["/api/v1/password-reset%2Fs3cr3t%2Fconfirm/", "/api/v1/password-reset/[masked]/confirm/"],
    ["/%61pi/v1/invit%61tions/s3cr3t/accept/", "/api/v1/invitations/[masked]/accept/"],
    ["/API/V1/Password-Reset/s3cr3t/confirm/", "/API/V1/Password-Reset/[masked]/confirm/"],
    [
      "/api/v1/x/%2e%2e/users/me/change-email/s3cr3t/revoke/",
      "/api/v1/users/me/change-email/[masked]/revoke/",
    ],
    ["/api/v1/password-reset//./s3cr3t/confirm/?a=%2F", "/api/v1/password-reset//[masked]/confirm/?a=/"],
    ["/%6Cinks/password-reset/s3cr3t", "/links/password-reset/[masked]"],
    ["/links%2Femail-change%2Fs3cr3t%2Fconfirm", "/links/email-change/[masked]/confirm"],
    ["GET /links/x/../invitations/s3cr3t failed", "GET /links/invitations/[masked] failed"],
    // Encoded twelve times over: more rounds than any reader makes, so it is masked whole.
    [`/api/v1/password%${"25".repeat(12)}2Dreset/s3cr3t/`, "[masked path]"],
  ])("%s, however spelled", (text, masked) => {
    expect(maskTokenPaths(text)).toBe(masked);
  });

  it("leaves paths without tokens alone", () => {
    for (const path of [
      "/api/v1/password-reset/",
      "/api/v1/bank-accounts/0b7c/invitations/",
      "/api/v1/users/me/",
      "/api/v1/bank%2Daccounts/",
      "at /srv/allot/apps/api/src/routers/invitations/accept-invitation.ts:12:3",
    ])
      expect(maskTokenPaths(path)).toBe(path);
  });
});
