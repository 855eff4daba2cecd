import { createDatabase, type DatabaseHandle } from "@allot/db/create-database";
import { internalTransactions } from "@allot/db/schema/internal-transactions";
import { describeOnPostgres } from "@allot/db/testing/server-suites";
import { createAccessTokens } from "@allot/domain/auth/access-tokens";
import { createBank } from "@allot/domain/banks/create-bank";
import { verifyLedger } from "@allot/domain/ledger/verify-ledger";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { createUser } from "@allot/domain/users/create-user";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildApp } from "../../src/app";
import { testConfig } from "../testing/test-app";
import { temporaryAttachmentStore } from "../testing/test-attachments";
import { startPrivatePostgres } from "./private-postgres";

interface Outcome {
  /** When the request was sent, in ms from the start of the file. */
  sentAt: number;
  tookMs: number;
  status: number;
  retryAfter: string | null;
  transferId?: string;
}

const WORKERS = 8;
const DOWN_MS = 3_000;

/*
 * PostgreSQL restarting under load: a private server (so the machine's shared one is left alone)
 * is stopped with a fast shutdown, kept down for three seconds and started again while eight
 * clients keep sending transfers and reads over real sockets. Every answer is a success or a 503
 * with Retry-After, the same app (same pool) answers again once the server is back, and every
 * acknowledged transfer is in the ledger afterwards. PostgreSQL only: PGlite runs inside the
 * process and cannot restart under it.
 */
describeOnPostgres("PostgreSQL restarting under load", () => {
  let server: Awaited<ReturnType<typeof startPrivatePostgres>>;
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let baseUrl: string;

  beforeAll(async () => {
    server = await startPrivatePostgres();
    database = await createDatabase({ url: server.url, maxConnections: 10 });
    await database.migrate();
    const config = testConfig();
    app = await buildApp({
      db: database.db,
      tokens: createAccessTokens(config.jwtSecret),
      config,
      attachments: temporaryAttachmentStore().store,
    });
    baseUrl = await app.listen({ port: 0, host: "127.0.0.1" });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await server?.dispose();
  });

  it("answers 503 with Retry-After while it is down, never a 500, and recovers by itself", async () => {
    const email = "restart@example.com";
    const password = "correct horse battery staple";
    await createUser(internalContext(database.db, "cli"), { email, password });
    const bank = await createBank(internalContext(database.db, "cli"), {
      name: "Restart Bank",
      currency: "USD",
    });
    const login = await post("/api/token/", undefined, { email, password });
    const authorization = `Bearer ${login.body.access}`;
    const account = (
      await post("/api/v1/bank-accounts/", authorization, {
        name: "Everyday",
        bank: bank.id,
        available_balance: "1000.00",
      })
    ).body;
    const groceries = await post("/api/v1/budgets/", authorization, {
      bank_account: account.id,
      name: "Groceries",
      budget_type: "G",
      funding_type: "F",
      target_balance: "100000.00",
      funding_amount: "0.00",
    });
    expect(groceries.outcome.status, JSON.stringify(groceries.body)).toBe(201);

    const outcomes: Outcome[] = [];
    const health: Outcome[] = [];
    let running = true;
    const worker = async () => {
      while (running) {
        const transfer = await post("/api/v1/internal-transactions/", authorization, {
          bank_account: account.id,
          amount: "0.01",
          src_budget: account.unallocated_budget,
          dst_budget: groceries.body.id,
        });
        outcomes.push({ ...transfer.outcome, transferId: transfer.body?.id });
        outcomes.push(await get(`/api/v1/internal-transactions/?bank_account=${account.id}`, authorization));
      }
    };
    const watchHealth = async () => {
      while (running) {
        health.push(await get("/healthz"));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };

    const load = Promise.all([...Array.from({ length: WORKERS }, worker), watchHealth()]);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const stoppedAt = Date.now() - startedAt;
    await server.stop();
    await new Promise((resolve) => setTimeout(resolve, DOWN_MS));
    await server.start();
    const backAt = Date.now() - startedAt;
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    running = false;
    await load;

    const statuses = countBy(outcomes.map((o) => o.status));
    console.info(
      `restart under load: ${outcomes.length} requests, statuses ${JSON.stringify(statuses)}; ` +
        `down from ${stoppedAt} ms to ${backAt} ms`,
    );
    expect(Object.keys(statuses).every((status) => ["200", "201", "503"].includes(status))).toBe(true);
    const unavailable = outcomes.filter((o) => o.status === 503);
    expect(unavailable.length, "the outage was felt").toBeGreaterThan(0);
    expect(unavailable.every((o) => o.retryAfter === "5")).toBe(true);
    // Refused promptly, not after hanging on a pool waiting out the outage.
    expect(Math.max(...unavailable.map((o) => o.tookMs))).toBeLessThan(12_000);
    expect(health.some((h) => h.status === 503 && h.retryAfter === "5")).toBe(true);
    // The pool heals without a restart of the app: from two seconds after the server is back,
    // every request succeeds.
    const afterRecovery = outcomes.filter((o) => o.sentAt > backAt + 2_000);
    expect(afterRecovery.length).toBeGreaterThan(0);
    expect(afterRecovery.filter((o) => o.status >= 300)).toEqual([]);
    expect(health.at(-1)?.status).toBe(200);

    // Nothing acknowledged is lost, and the ledger adds up.
    const acknowledged = outcomes.flatMap((o) => (o.status === 201 && o.transferId ? [o.transferId] : []));
    const stored = new Set(
      (
        await database.db
          .select({ id: internalTransactions.id })
          .from(internalTransactions)
          .where(eq(internalTransactions.bankAccountId, account.id))
      ).map((row) => row.id),
    );
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    expect(await verifyLedger(database.db, account.id)).toEqual([]);
  }, 120_000);

  async function post(path: string, authorization: string | undefined, payload: unknown) {
    const sentAt = Date.now();
    const response = await fetch(`${baseUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(authorization ? { authorization } : {}) },
      body: JSON.stringify(payload),
    });
    const text = await response.text();
    return { body: text ? JSON.parse(text) : null, outcome: outcomeOf(response, sentAt) };
  }

  async function get(path: string, authorization?: string): Promise<Outcome> {
    const sentAt = Date.now();
    const response = await fetch(`${baseUrl}${path}`, { headers: authorization ? { authorization } : {} });
    await response.arrayBuffer();
    return outcomeOf(response, sentAt);
  }

  function outcomeOf(response: Response, sentAt: number): Outcome {
    return {
      sentAt: sentAt - startedAt,
      tookMs: Date.now() - sentAt,
      status: response.status,
      retryAfter: response.headers.get("retry-after"),
    };
  }
});

const startedAt = Date.now();

const countBy = (values: number[]) =>
  values.reduce<Record<string, number>>((counts, value) => {
    counts[value] = (counts[value] ?? 0) + 1;
    return counts;
  }, {});
