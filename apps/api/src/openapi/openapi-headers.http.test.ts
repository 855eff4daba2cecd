import { allRoutes } from "@allot/contract/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../test/testing/test-app";

const ref = (name: string) => `#/components/headers/${name}`;

// One engine is enough: the document does not depend on the database.
describe.each(testEngines().slice(0, 1))("headers in the OpenAPI document (%s)", (engine) => {
  const t = useTestApp(engine);

  it("describes the rate-limit, request-id, Retry-After and WWW-Authenticate headers once, as components", async () => {
    const document = (await t.inject({ url: "/api/v1/openapi.json" })).json();
    expect(Object.keys(document.components.headers).sort()).toEqual([
      "RateLimit",
      "RateLimit-Policy",
      "Retry-After",
      "Retry-After-In-Progress",
      "WWW-Authenticate",
      "X-Request-Id",
    ]);
    expect(document.components.headers["RateLimit-Policy"].description).toMatch(/q=.*w=/);
    expect(document.components.headers.RateLimit.description).toMatch(/r=.*t=/);
    // Required where referenced (a $ref takes no siblings but a description): on every 429 and 401.
    expect(document.components.headers["Retry-After"].required).toBe(true);
    expect(document.components.headers["WWW-Authenticate"].required).toBe(true);
  });

  it("lists them on every response of every operation, Retry-After on 429s, WWW-Authenticate on 401s", async () => {
    const document = (await t.inject({ url: "/api/v1/openapi.json" })).json();
    for (const route of allRoutes) {
      const operation = document.paths[route.path][route.method.toLowerCase()];
      for (const [status, response] of Object.entries<{ headers: Record<string, { $ref: string }> }>(
        operation.responses,
      )) {
        const where = `${route.method} ${route.path} ${status}`;
        expect(response.headers["RateLimit-Policy"]?.$ref, where).toBe(ref("RateLimit-Policy"));
        expect(response.headers.RateLimit?.$ref, where).toBe(ref("RateLimit"));
        expect(response.headers["X-Request-Id"]?.$ref, where).toBe(ref("X-Request-Id"));
      }
      expect(operation.responses["429"].headers["Retry-After"]).toEqual({ $ref: ref("Retry-After") });
      expect(operation.responses["401"].headers["WWW-Authenticate"]).toEqual({
        $ref: ref("WWW-Authenticate"),
      });
    }
  });
});
