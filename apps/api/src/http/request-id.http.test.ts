import { Writable } from "node:stream";
import { userRoutes } from "@allot/contract/users/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { createAccessTokens } from "@allot/domain/auth/access-tokens";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig, useTestApp } from "../../test/testing/test-app";
import { routeCaller } from "../../test/testing/test-client";
import { buildApp } from "../app";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Every answer names its request (X-Request-Id), and every log line of it carries the same id. */
describe.each(testEngines())("X-Request-Id (%s)", (engine) => {
  const t = useTestApp(engine);
  const lines: Array<{ reqId?: string; msg?: string }> = [];
  let logged: FastifyInstance;

  beforeAll(async () => {
    const config = testConfig();
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    logged = await buildApp(
      { db: t.db, tokens: createAccessTokens(config.jwtSecret), config, attachments: t.attachments.store },
      { logger: { level: "info", stream } },
    );
  });
  afterAll(async () => {
    await logged?.close();
  });

  it("answers a fresh UUID on success, refusal and unknown paths alike", async () => {
    const user = await t.user();
    const answers = await Promise.all([
      t.as(user).call(userRoutes.getMe),
      t.anonymous.call(userRoutes.getMe),
      t.inject({ method: "GET", url: "/api/v1/nowhere/" }),
      t.inject({ method: "GET", url: "/healthz" }),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 401, 404, 200]);
    const ids = answers.map((answer) => String(answer.headers["x-request-id"]));
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("keeps a plain id the client sent and replaces one that could forge a log line", async () => {
    const kept = await t.inject({
      method: "GET",
      url: "/healthz",
      headers: { "x-request-id": "import-42.a_b-C9" },
    });
    expect(kept.headers["x-request-id"]).toBe("import-42.a_b-C9");
    const longest = "x".repeat(128);
    expect(
      (await t.inject({ url: "/healthz", headers: { "x-request-id": longest } })).headers["x-request-id"],
    ).toBe(longest);
    for (const hostile of ["a b", "a:b", "me@host", "x".repeat(129), "id\u00e9", '{"msg":"x"}']) {
      const replaced = await t.inject({
        method: "GET",
        url: "/healthz",
        headers: { "x-request-id": hostile },
      });
      expect(replaced.headers["x-request-id"]).toMatch(UUID);
    }
  });

  it("puts the id on every log line of the request", async () => {
    const user = await t.user();
    const response = await routeCaller((options) => logged.inject(options), user).call(
      userRoutes.getMe,
      {},
      { headers: { "x-request-id": "trace-7" } },
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers["x-request-id"]).toBe("trace-7");
    const own = lines.filter((line) => line.reqId === "trace-7");
    // One line a request (fastify's "incoming request" is off).
    expect(own.map((line) => line.msg)).toEqual(["request completed"]);
  });
});
