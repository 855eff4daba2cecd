import { createHash } from "node:crypto";
import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { expectLinkPageHeaders } from "../../test/testing/link-page-headers";
import { useTestApp } from "../../test/testing/test-app";

/** The shell every /links page shares: headers, 404s, escaping, errors as pages, apart from the API. */
describe.each(testEngines())("link pages: shell (%s)", (engine) => {
  const t = useTestApp(engine);

  it("sends the security headers on pages, 404s and errors alike", async () => {
    const page = await t.inject({ url: "/links/password-reset/some-token" });
    expect(page.statusCode).toBe(200);
    expectLinkPageHeaders(page);
    const missing = await t.inject({ url: "/links/no-such-page" });
    expect(missing.statusCode).toBe(404);
    expectLinkPageHeaders(missing);
    const nul = await t.inject({
      method: "POST",
      url: "/links/password-reset/some-token",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "new_password=a%00b&confirm_password=a%00b",
    });
    expect(nul.statusCode).toBe(400);
    expectLinkPageHeaders(nul);
    expect(nul.body).toContain("The request could not be read");
  });

  it("allows its one stylesheet by hash, and nothing inline or external besides", async () => {
    const page = await t.inject({ url: "/links/email-change/some-token/confirm" });
    const css = /<style>([\s\S]*?)<\/style>/.exec(page.body)?.[1] ?? "";
    const hash = createHash("sha256").update(css).digest("base64");
    expect(page.headers["content-security-policy"]).toContain(`style-src 'sha256-${hash}'`);
    expect(page.body).not.toMatch(/<script|\sstyle=|\son\w+=/i);
  });

  it("answers unknown paths and methods under /links/ with an HTML 404 page", async () => {
    for (const url of ["/links", "/links/", "/links/invitations", "/links/invitations/a/b/c", "/links/x"]) {
      const response = await t.inject({ url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).toContain("Link not found");
    }
    const put = await t.inject({ method: "PUT", url: "/links/password-reset/some-token" });
    expect(put.statusCode).toBe(404);
    expect(put.body).toContain("Link not found");
    // Outside /links the API's JSON 404 still answers.
    expect((await t.inject({ url: "/elsewhere" })).json()).toEqual({
      detail: "Not found.",
      code: "not_found",
    });
  });

  it("escapes the token wherever a page repeats it", async () => {
    const token = `"><script>alert('x')</script>&`;
    for (const url of [
      `/links/password-reset/${encodeURIComponent(token)}`,
      `/links/email-change/${encodeURIComponent(token)}/confirm`,
      `/links/email-change/${encodeURIComponent(token)}/revoke`,
    ]) {
      const page = await t.inject({ url });
      expect(page.statusCode, url).toBe(200);
      expect(page.body).not.toContain("<script>");
      // encodeURIComponent leaves ' alone: HTML escaping has to catch it.
      expect(page.body).toContain(`action="${url.replaceAll("'", "&#39;")}"`);
    }
  });

  it("stays out of the OpenAPI document and the API's route table", async () => {
    const document = (await t.inject({ url: "/api/v1/openapi.json" })).json();
    expect(Object.keys(document.paths).filter((path) => path.includes("links"))).toEqual([]);
    const api = await t.inject({ url: "/api/links/password-reset/some-token" });
    expect(api.statusCode).toBe(404);
    expect(api.json().code).toBe("not_found");
  });
});
