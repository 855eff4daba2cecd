import { authRoutes } from "@allot/contract/auth/routes";
import { allRoutes } from "@allot/contract/routes";
import { userRoutes } from "@allot/contract/users/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../test/testing/test-app";
import { BODY_LIMIT_BYTES } from "./body-parsers";

/** The HTTP layer every endpoint shares: encodings, error bodies, routing, health and the document. */
describe.each(testEngines())("HTTP surface (%s)", (engine) => {
  const t = useTestApp(engine);

  const loginWith = (payload: string, contentType: string) =>
    t.inject({ method: "POST", url: "/api/token/", payload, headers: { "content-type": contentType } });

  it("accepts JSON, form-encoded and multipart bodies alike", async () => {
    const user = await t.user();
    const json = await loginWith(
      JSON.stringify({ email: user.email, password: user.password }),
      "application/json",
    );
    expect(json.statusCode).toBe(200);

    const form = new URLSearchParams({ email: user.email, password: user.password }).toString();
    const formed = await loginWith(form, "application/x-www-form-urlencoded");
    expect(formed.statusCode).toBe(200);
    expect(formed.json().access).toEqual(expect.any(String));

    const boundary = "----allot-test-boundary";
    const multipart = [
      `--${boundary}\r\nContent-Disposition: form-data; name="email"\r\n\r\n${user.email}\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="password"\r\n\r\n${user.password}\r\n`,
      `--${boundary}--\r\n`,
    ].join("");
    const parted = await loginWith(multipart, `multipart/form-data; boundary=${boundary}`);
    expect(parted.statusCode).toBe(200);
    expect(parted.json().access).toEqual(expect.any(String));
  });

  it("answers malformed JSON, a wrong content type and an oversized body with 4xx and a clear body", async () => {
    const malformed = await loginWith('{"email": "a@b.c",', "application/json");
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({
      detail: expect.stringContaining("JSON parse error"),
      code: "parse_error",
    });

    const wrongType = await loginWith("email=a", "text/plain");
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().code).toBe("unsupported_media_type");

    const huge = await loginWith(
      JSON.stringify({ email: "x".repeat(BODY_LIMIT_BYTES), password: "p" }),
      "application/json",
    );
    expect(huge.statusCode).toBe(413);
    expect(huge.json().code).toBe("request_too_large");
  });

  it("reports invalid fields by name, required ones too, and over-long strings as 400", async () => {
    const missing = await t.anonymous.callUnchecked(authRoutes.login, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({
      email: ["This field is required."],
      password: ["This field is required."],
    });

    const tooLong = await t.anonymous.call(authRoutes.login, { email: "a".repeat(300), password: "x" });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json<Record<string, string[]>>().email?.[0]).toMatch(/no more than 254 characters/);
  });

  it("takes an empty body on a POST as no fields, with or without a content type", async () => {
    const bare = await t.inject({ method: "POST", url: "/api/token/" });
    expect(bare.statusCode).toBe(400);
    expect(Object.keys(bare.json()).sort()).toEqual(["email", "password"]);
    const emptyJson = await t.inject({
      method: "POST",
      url: "/api/token/",
      headers: { "content-type": "application/json" },
    });
    expect(emptyJson.statusCode).toBe(400);
  });

  it("serves paths with and without the trailing slash; unknown paths 404, wrong methods 405", async () => {
    const user = await t.user();
    const headers = { authorization: user.bearer };
    // Raw: the path as spelled, with and without its trailing slash, is what is tested.
    expect((await t.inject({ url: "/api/v1/users/me/", headers })).statusCode).toBe(200);
    expect((await t.inject({ url: "/api/v1/users/me", headers })).statusCode).toBe(200);
    const unknown = await t.inject({ url: "/api/v1/no-such-thing/", headers });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ detail: "Not found.", code: "not_found" });
    const wrong = await t.inject({ method: "PUT", url: "/api/token/" });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.json().code).toBe("method_not_allowed");
    expect((await t.inject({ url: "/elsewhere" })).statusCode).toBe(404);
  });

  it("refuses a bad credential with 401, but lets the token endpoints ignore a stale one", async () => {
    const user = await t.user();
    const garbage = await t.as("Bearer not-a-token").call(userRoutes.getMe);
    expect(garbage.statusCode).toBe(401);
    expect(garbage.json()).toEqual({ detail: "Token is invalid.", code: "token_not_valid" });
    // Raw: an Authorization scheme the API does not speak, which no client of it sends.
    const scheme = await t.inject({ url: "/api/v1/users/me/", headers: { authorization: "Basic abc" } });
    expect(scheme.statusCode).toBe(401);
    const login = await t
      .as("Bearer not-a-token")
      .call(authRoutes.login, { email: user.email, password: user.password });
    expect(login.statusCode).toBe(200);
    const logout = await t.as("Bearer x").call(authRoutes.logout);
    expect(logout.statusCode).toBe(204);
  });

  it("reports health once the database answers", async () => {
    const health = await t.inject({ url: "/healthz" });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: "ok" });
  });

  it("publishes a valid OpenAPI 3 document with every route, its success status and error bodies", async () => {
    const response = await t.inject({ url: "/api/v1/openapi.json" });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    const result = await new Validator().validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);

    for (const route of allRoutes) {
      const operation = document.paths[route.path]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      expect(Object.keys(operation.responses)).toContain(String(route.status));
      expect(operation.responses["400"].content["application/json"].schema.anyOf).toEqual([
        { $ref: "#/components/schemas/ValidationError" },
        { $ref: "#/components/schemas/Error" },
      ]);
      if (operation.requestBody) {
        expect(Object.keys(operation.requestBody.content)).toEqual(
          expect.arrayContaining([
            "application/json",
            "application/x-www-form-urlencoded",
            "multipart/form-data",
          ]),
        );
      }
    }
  });

  it("documents the statuses the fuzz suite saw undocumented: 403, 409, 413 and bodiless 201/200", async () => {
    const paths = (await t.inject({ url: "/api/v1/openapi.json" })).json().paths;
    const statuses = (path: string, method: string) => Object.keys(paths[path][method].responses);
    // A global category may be seen but not changed; the Unallocated budget not archived.
    expect(statuses("/v1/transaction-categories/{id}/", "patch")).toContain("403");
    expect(statuses("/v1/budgets/{id}/archive/", "post")).toContain("403");
    expect(statuses("/v1/bank-accounts/{id}/invite/", "post")).toContain("409");
    expect(statuses("/v1/transaction-categories/{id}/", "delete")).toContain("409");
    // Every authenticated write takes an Idempotency-Key: its header, its 409 and its 422.
    const transfer = paths["/v1/internal-transactions/"].post;
    expect(transfer.parameters).toContainEqual(
      expect.objectContaining({ name: "Idempotency-Key", in: "header" }),
    );
    expect(Object.keys(transfer.responses)).toEqual(expect.arrayContaining(["409", "422"]));
    expect(paths["/token/"].post.parameters ?? []).not.toContainEqual(
      expect.objectContaining({ name: "Idempotency-Key" }),
    );
    expect(paths["/v1/budgets/"].get.parameters).not.toContainEqual(
      expect.objectContaining({ name: "Idempotency-Key" }),
    );
    // A disabled webhook refuses tests and redeliveries; both are accepted with 202, not sent yet.
    expect(statuses("/v1/webhooks/{id}/test/", "post")).toEqual(expect.arrayContaining(["202", "409"]));
    expect(statuses("/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver/", "post")).toContain("409");
    // The change feed: its cursor and page size, and the 410 of an expired cursor.
    const feed = paths["/v1/bank-accounts/{id}/changes/"].get;
    expect(Object.keys(feed.responses)).toEqual(expect.arrayContaining(["200", "400", "404", "410"]));
    expect(feed.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(
      expect.arrayContaining(["id", "since", "page_size"]),
    );
    expect(statuses("/v1/budgets/", "post")).toContain("413");
    expect(statuses("/v1/budgets/", "get")).not.toContain("413");
    const bodiless = paths["/v1/users/me/change-email/"].post.responses["201"];
    expect(bodiless.description).toBe("No content");
    expect(bodiless).not.toHaveProperty("content"); // headers only (openapi-headers.http.test.ts)
    // Receipts: file parts in, binary out, and the upload routes' own body bound.
    const create = paths["/v1/transactions/"].post;
    expect(create.requestBody.content["multipart/form-data"].schema.properties.image).toMatchObject({
      type: ["string", "null"],
      format: "binary",
    });
    expect(create.responses["413"].description).toBe("Request body larger than 21 MiB");
    const image = paths["/v1/transactions/{id}/image/"].get;
    expect(Object.keys(image.responses["200"].content)).toContain("image/png");
    expect(Object.keys(image.responses["200"].content)).not.toContain("application/pdf");
    expect(Object.keys(paths["/v1/transactions/{id}/document/"].get.responses["200"].content)).toContain(
      "application/pdf",
    );
    expect(Object.keys(image.responses)).toEqual(expect.arrayContaining(["200", "400", "401", "404", "429"]));
  });

  it("serves the reference page and its script from here (docs.browser.test.ts opens it)", async () => {
    const page = await t.inject({ url: "/api/docs" });
    expect(page.statusCode).toBe(301);
    const html = await t.inject({ url: page.headers.location as string });
    expect(html.statusCode).toBe(200);
    expect(html.headers["content-type"]).toMatch(/text\/html/);
    expect(html.body).toContain("/api/v1/openapi.json");
    const script = html.body.match(/<script[^>]+src="([^"]+)"/)?.[1] ?? "";
    expect(script).not.toMatch(/^(https?:)?\/\//);
    const served = await t.inject({ url: new URL(script, "http://localhost/api/docs/").pathname });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toMatch(/javascript/);
  });
});
