import { credentialRoutes } from "@allot/contract/credentials/routes";
import { rowsOf } from "@allot/db/rows-of";
import { passwordResetRequests } from "@allot/db/schema/credential-tokens";
import { testEngines } from "@allot/db/testing/test-databases";
import { createAccessTokens } from "@allot/domain/auth/access-tokens";
import type { EmailToSend } from "@allot/domain/email/outgoing-email";
import { recordingLog } from "@allot/logging/testing/recording-log";
import { startEmailDelivery } from "@allot/scheduler/email-delivery";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { credentialsKit, strongPassword, tokenInLink } from "../../../test/testing/credentials-test-kit";
import { recordingDatabase } from "../../../test/testing/recording-database";
import { testConfig, useTestApp } from "../../../test/testing/test-app";
import { routeCaller } from "../../../test/testing/test-client";
import { buildApp } from "../../app";

const RESET_LINK = "/links/password-reset/";
// Its counters roll over with the clock, whatever the address: left out of the row comparison.
const CLOCK_DRIVEN_TABLES = new Set(["throttle_counters"]);

/**
 * Issue 14, item 9: a reset request for a known address must not take longer than for an unknown
 * one. Proven without timing: both run the same statements and write the same rows (one queued
 * request); the email-delivery loop does the rest later.
 */
describe.each(testEngines())("password-reset requests are queued alike (%s)", (engine) => {
  const t = useTestApp(engine);
  const kit = credentialsKit(t);
  let recorder: ReturnType<typeof recordingDatabase>;
  let recorded: FastifyInstance;

  beforeAll(async () => {
    recorder = recordingDatabase(t.db);
    const config = testConfig();
    recorded = await buildApp({
      db: recorder.db,
      tokens: createAccessTokens(config.jwtSecret),
      config,
      attachments: t.attachments.store,
    });
  });
  afterAll(async () => {
    await recorded?.close();
  });

  const request = (app: FastifyInstance, email: string) =>
    routeCaller((options) => app.inject(options), null).call(credentialRoutes.requestPasswordReset, {
      email,
    });

  /** Rows per table of the public schema. */
  async function rowCounts(): Promise<Record<string, number>> {
    const tables = rowsOf<{ table_name: string }>(
      await t.db.execute(
        sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
      ),
    );
    const counts: Record<string, number> = {};
    for (const { table_name: table } of tables) {
      if (CLOCK_DRIVEN_TABLES.has(table)) continue;
      const [row] = rowsOf<{ n: number }>(
        await t.db.execute(sql`select count(*)::int as n from ${sql.identifier(table)}`),
      );
      counts[table] = row?.n ?? -1;
    }
    return counts;
  }

  /** What one request ran and wrote: its statements, and the tables whose row count changed. */
  async function observe(email: string) {
    const before = await rowCounts();
    recorder.take();
    const response = await request(recorded, email);
    const statements = recorder.take();
    const after = await rowCounts();
    const changed = Object.fromEntries(
      Object.keys(after)
        .filter((table) => after[table] !== before[table])
        .map((table) => [table, (after[table] ?? 0) - (before[table] ?? 0)]),
    );
    return { status: response.statusCode, statements, changed };
  }

  it("runs the same statements and writes only one queued request for a known and an unknown address", async () => {
    const known = await t.user();
    const placeholder = await kit.placeholder(`Placeholder-${Date.now()}@example.com`);
    // Statements prepared once per database handle are built on the first request: warm up first.
    expect((await request(recorded, "warm-up@example.com")).statusCode).toBe(204);

    const seen = [
      await observe(known.email),
      await observe(`nobody-${Date.now()}@example.com`),
      await observe(placeholder.email.toUpperCase()),
    ];
    for (const { status, changed } of seen) {
      expect(status).toBe(204);
      expect(changed).toEqual({ password_reset_requests: 1 });
    }
    const [first, ...others] = seen.map((s) => s.statements);
    for (const statements of others) expect(statements).toEqual(first);
    // Besides the throttle's counters, the request's whole database work is the one insert.
    expect(first?.filter((statement) => !statement.includes('"throttle_counters"'))).toEqual([
      expect.stringMatching(/^insert into "password_reset_requests"/),
    ]);
  });

  it("turns a queued request into a working reset link for a known address, and nothing for an unknown one", async () => {
    const user = await t.user();
    const nobody = `nobody-${Date.now()}@example.com`;
    // Queued while no delivery loop runs, as across a restart: the rows wait in the database.
    expect((await request(t.app, user.email.toUpperCase())).statusCode).toBe(204);
    expect((await request(t.app, nobody)).statusCode).toBe(204);
    const queued = await t.db.select().from(passwordResetRequests);
    expect(queued.map((row) => row.email)).toEqual(
      expect.arrayContaining([user.email.toUpperCase(), nobody]),
    );

    const sent: EmailToSend[] = [];
    const delivery = startEmailDelivery(
      t.db,
      {
        send: async (message) => {
          sent.push(message);
        },
      },
      {
        publicBaseUrl: testConfig().publicBaseUrl,
        vault: t.vault,
        log: recordingLog().log,
        transportName: "test",
      },
    );
    try {
      for (let waited = 0; sent.every((m) => m.to !== user.email) && waited < 20_000; waited += 100) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await delivery.stop();
    }
    expect(await t.db.select().from(passwordResetRequests)).toEqual([]);
    expect(sent.filter((m) => m.to.toLowerCase() === nobody)).toEqual([]);
    const toUser = sent.filter((m) => m.to === user.email);
    expect(toUser.map((m) => [m.kind, m.subject])).toEqual([["password_reset", "Reset your Allot password"]]);
    const link = /http:\/\/allot\.test\/links\/password-reset\/[\w-]{43}/.exec(toUser[0]?.text ?? "")?.[0];
    if (!link) throw new Error(`no reset link in: ${toUser[0]?.text}`);

    const password = strongPassword();
    const confirmed = await t.anonymous.call(credentialRoutes.confirmPasswordReset, {
      token: tokenInLink(link, RESET_LINK),
      new_password: password,
      confirm_password: password,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(204);
    expect((await kit.login(user.email, password)).statusCode).toBe(200);
  });
});
