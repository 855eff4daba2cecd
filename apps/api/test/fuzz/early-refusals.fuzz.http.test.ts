import type { AddressInfo } from "node:net";
import type { RouteSpec } from "@allot/contract/http/route";
import { allRoutes } from "@allot/contract/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { BODY_LIMIT_BYTES } from "../../src/http/body-parsers";
import { LINGER_MAX_BYTES, LINGER_MS } from "../../src/http/early-refusals";
import { sendWhileRefused } from "../testing/refused-exchange";
import { useTestApp } from "../testing/test-app";

/*
 * Early-refusal bodies on kept-alive connections (issue 31): generated requests that must be
 * refused before their body is read — an anonymous caller of a protected route, a declared body
 * over its route's bound, a content type no parser takes — each on its own kept-alive connection,
 * its body written as fast as the server takes it and after the answer too. Each must get its
 * answer, `Connection: close`, the connection closed within the linger, and no more than a bounded
 * part of its body read. `pnpm fuzz` runs FUZZ_RUNS cases with FUZZ_SEED; `pnpm test` a fixed few.
 */

const MB = 1024 * 1024;
const FIXED_SEED = 20_261_207;
const runs = Math.max(12, Math.round(Number(process.env.FUZZ_RUNS ?? 12) / 20));
const seed =
  process.env.FUZZ_SEED === "random"
    ? Math.floor(Math.random() * 2 ** 31)
    : Number(process.env.FUZZ_SEED ?? FIXED_SEED);
// What the kernels of both ends may hold on loopback, on top of what the server reads.
const KERNEL_BUFFERS = 32 * MB;

const withBody = allRoutes.filter((route) => ["POST", "PUT", "PATCH"].includes(route.method));
const protectedRoutes = withBody.filter((route) => route.access !== "public");
const publicRoutes = withBody.filter((route) => route.access === "public");

const pathOf = (route: RouteSpec) =>
  `/api${route.path.replace(/\{\w+\}/g, "0b7c2a3e-5f1d-4c2b-9a8e-1f2e3d4c5b6a")}`;

const parsedTypes = [
  "application/json",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=fuzz",
];
const unparsedType = fc.oneof(
  fc.constantFrom(
    "text/plain",
    "application/xml",
    "application/octet-stream",
    "image/png",
    "multipart/form-data",
  ),
  fc
    .stringMatching(/^[a-z]{1,8}\/[a-z0-9.+-]{1,12}$/)
    .filter((type) => !parsedTypes.some((p) => p.startsWith(type))),
);

interface Case {
  why: "anonymous" | "too large" | "unparsed type" | "link page, unparsed type";
  method: string;
  path: string;
  type: string;
  declared: number;
  credential: string | null;
}

const cases: fc.Arbitrary<Case> = fc
  .oneof(
    fc.record({
      why: fc.constant("anonymous" as const),
      route: fc.constantFrom(...protectedRoutes),
      type: fc.oneof(fc.constantFrom(...parsedTypes), unparsedType),
      declared: fc.integer({ min: MB, max: 1024 * MB }),
      credential: fc.constantFrom(null, "Api-Key not-a-key", "Bearer not.a.jwt"),
    }),
    fc.record({
      why: fc.constant("too large" as const),
      route: fc.constantFrom(...withBody),
      type: fc.constantFrom(...parsedTypes),
      declared: fc.integer({ min: 64 * MB, max: 1024 * MB }),
      credential: fc.constant(null),
    }),
    fc.record({
      why: fc.constant("unparsed type" as const),
      route: fc.constantFrom(...publicRoutes),
      type: unparsedType,
      declared: fc.integer({ min: MB, max: 1024 * MB }),
      credential: fc.constant(null),
    }),
  )
  .map(({ route, ...rest }) => ({ ...rest, method: route.method, path: pathOf(route) }));

const linkPageCases: fc.Arbitrary<Case> = fc.record({
  why: fc.constant("link page, unparsed type" as const),
  method: fc.constant("POST"),
  path: fc.constantFrom(
    "/links/password-reset/t0k3n",
    "/links/email-change/t0k3n/confirm",
    "/links/setup/t0k3n",
  ),
  type: unparsedType,
  declared: fc.integer({ min: MB, max: 1024 * MB }),
  credential: fc.constant(null),
});

describe.each(testEngines())("fuzz: early refusals on kept-alive connections (%s)", (engine) => {
  const t = useTestApp(engine);
  let port: number;
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    port = (t.app.server.address() as AddressInfo).port;
  });

  it(
    "answers, closes, and reads a bounded part of every body refused before it was read",
    async () => {
      console.log(`early-refusal fuzz (${engine}): ${runs} cases, FUZZ_SEED=${seed}`);
      await fc.assert(
        fc.asyncProperty(
          fc.oneof({ arbitrary: cases, weight: 4 }, { arbitrary: linkPageCases, weight: 1 }),
          async (c) => {
            const head = [
              `${c.method} ${c.path} HTTP/1.1`,
              "host: 127.0.0.1",
              `content-type: ${c.type}`,
              ...(c.credential ? [`authorization: ${c.credential}`] : []),
            ].join("\r\n");
            const started = Date.now();
            const exchange = await sendWhileRefused(port, head, { declared: c.declared, maxSend: 256 * MB });
            const label = `${c.why}: ${c.method} ${c.path} (${c.type}, ${c.declared} bytes)`;
            expect(exchange.errorBeforeAnswer, label).toBeNull();
            expect([400, 401, 404, 405, 413, 415], `${label}: ${exchange.answer.slice(0, 200)}`).toContain(
              exchange.status,
            );
            expect(exchange.answer, label).toMatch(/\r\nconnection: close\r\n/i);
            expect(exchange.closed, label).toBe(true);
            expect(Date.now() - started, label).toBeLessThan(LINGER_MS + 3_000);
            expect(exchange.sent, label).toBeLessThan(BODY_LIMIT_BYTES + LINGER_MAX_BYTES + KERNEL_BUFFERS);
          },
        ),
        { seed, numRuns: runs },
      );
    },
    Math.max(120_000, runs * (LINGER_MS + 3_000)),
  );
});
