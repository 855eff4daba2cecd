import { Writable } from "node:stream";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import type { Database } from "@allot/db/create-database";
import { testEngines } from "@allot/db/testing/test-databases";
import { createAccessTokens } from "@allot/domain/auth/access-tokens";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig, useTestApp } from "../../test/testing/test-app";
import { routeCaller } from "../../test/testing/test-client";
import { transactionKit } from "../../test/testing/transaction-test-kit";
import { buildApp } from "../app";

/*
 * A failed procedure is logged without the statement's values: a real database error of each
 * engine (whose message, query and parameters carry what the client sent) is raised inside a
 * procedure, and the lines the app logs are read back.
 */
describe.each(testEngines())("logged errors (%s)", (engine) => {
  const t = useTestApp(engine);
  const kit = transactionKit(t);
  const lines: string[] = [];
  let failing: FastifyInstance;
  const secret = "card-4111111111111111";
  let databaseError: unknown;

  beforeAll(async () => {
    const values = Array.from({ length: 2_000 }, (_, n) => `${secret}-${n}`);
    try {
      await t.db.execute(
        sql`select ${values.join(",")}::int, ${sql.join(
          values.map((v) => sql`${v}`),
          sql`, `,
        )}`,
      );
    } catch (error) {
      databaseError = error;
    }
    // The same database, except that every transaction fails with that error.
    const db = new Proxy(t.db, {
      get: (target, property) =>
        property === "transaction"
          ? () => Promise.reject(databaseError)
          : Reflect.get(target, property, target),
    }) as Database;
    const config = testConfig();
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split("\n").filter(Boolean));
        done();
      },
    });
    failing = await buildApp(
      { db, tokens: createAccessTokens(config.jwtSecret), config, attachments: t.attachments.store },
      { logger: { level: "info", stream } },
    );
  });
  afterAll(async () => {
    await failing?.close();
  });

  it("answers 500 and logs the failure without the request's values", async () => {
    expect(String(databaseError)).toContain(secret);
    const user = await t.user();
    const account = await kit.account(user);
    const row = await kit.transaction(user, account.id);
    const response = await routeCaller((options) => failing.inject(options), user).call(
      transactionRoutes.split,
      { id: row.id, splits: { [account.unallocated]: "1.00" } },
      { headers: { "x-request-id": "failing-split" } },
    );
    expect(response.statusCode).toBe(500);
    expect(response.headers["x-request-id"]).toBe("failing-split");
    expect(response.body).not.toContain(secret);
    const failures = lines.filter((line) => line.includes("procedure failed"));
    expect(failures.length).toBeGreaterThan(0);
    for (const line of failures) expect(line).toContain('"reqId":"failing-split"');
    for (const line of lines) {
      expect(line).not.toContain(secret);
      expect(line.length).toBeLessThan(10_000);
    }
    expect(failures.some((line) => line.includes('"err":{'))).toBe(true);
  });
});
