import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { verifyLedger } from "@allot/domain/ledger/verify-ledger";
import fc from "fast-check";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import type { TestApp } from "../testing/test-app";
import { FuzzWorld } from "./fuzz-world";
import { hygieneProblem, refusedEncodedPath } from "./hygiene-checks";
import { type FuzzOperation, fetchOpenApiDocument, listOperations } from "./openapi-operations";
import { type RequestPlan, requestPlans } from "./request-generator";
import { createResponseChecker } from "./response-checker";

export interface FuzzOptions {
  seed: number;
  /** Requests per operation. */
  runs: number;
  /** Only the operations whose id contains this text (to reproduce one). */
  only?: string;
  /** An answer slower than this is a finding (`pnpm fuzz`); unset: timings are only reported. */
  slowMs?: number;
}

/** One distinct problem (operation, status, what was wrong), with the first request that showed it. */
interface Finding {
  operation: string;
  problem: string;
  count: number;
  reproduction: string;
}

export interface FuzzReport {
  seed: number;
  operations: number;
  requests: number;
  byClass: Record<string, number>;
  serverErrors: number;
  mismatches: number;
  findings: Finding[];
  ledgerProblems: string[];
  accountsChecked: number;
  usersMade: number;
  milliseconds: number;
  /** Operations no generated request got a 2xx from (only the 4xx paths were exercised). */
  neverSucceeded: string[];
  /** Time spent per operation, slowest first (the five slowest). */
  slowest: [string, number][];
  /** Answers slower than `slowMs`. */
  slowAnswers: number;
  /** The slowest single answer: operation and milliseconds. */
  slowestAnswer: [string, number];
}

const CHUNK = 50;
const REFRESH_EVERY = 300;
const REQUEST_DEADLINE_MS = 60_000;

/**
 * Sends `runs` generated requests to every operation of the app's own OpenAPI document, as the
 * fuzzing user (bearer and API key), as another user and anonymously; checks every answer against
 * the document; then checks the ledger of every account. Deterministic for a seed, up to what the
 * server itself makes random (ids, tokens, timestamps).
 */
export async function runFuzz(t: TestApp, options: FuzzOptions): Promise<FuzzReport> {
  const { app, db } = t;
  const started = performance.now();
  const document = await fetchOpenApiDocument(app);
  const operations = listOperations(document).filter((o) => !options.only || o.id.includes(options.only));
  if (operations.length === 0) throw new Error(`no operation matches '${options.only}'`);
  const check = createResponseChecker(document);
  const arbitraries = operations.map((operation) => requestPlans(document, operation));
  const world = new FuzzWorld(t);
  await world.setUp();

  const report: FuzzReport = {
    seed: options.seed,
    operations: operations.length,
    requests: 0,
    byClass: {},
    serverErrors: 0,
    mismatches: 0,
    findings: [],
    ledgerProblems: [],
    accountsChecked: 0,
    usersMade: 0,
    milliseconds: 0,
    slowest: [],
    slowAnswers: 0,
    slowestAnswer: ["", 0],
    neverSucceeded: [],
  };
  const succeeded = new Set<string>();
  const spent = new Map<string, number>();
  const findings = new Map<string, Finding>();
  let needsRepair: "credentials" | "objects" | null = null;

  for (let chunk = 0; chunk * CHUNK < options.runs; chunk++) {
    const size = Math.min(CHUNK, options.runs - chunk * CHUNK);
    const generating = performance.now();
    const plans = arbitraries.map((arbitrary, i) =>
      fc.sample(arbitrary, { seed: mix(options.seed, i, chunk), numRuns: size }),
    );
    spent.set("(generation)", (spent.get("(generation)") ?? 0) + performance.now() - generating);
    const order = shuffled(operations.length, mix(options.seed, -1, chunk));
    for (let k = 0; k < size; k++) {
      for (const i of order) {
        const operation = operations[i] as FuzzOperation;
        const plan = plans[i]?.[k] as RequestPlan;
        // Credentials at once (else every later request is a 401); objects every so often (stale
        // ids meanwhile are just more 404s).
        const due =
          needsRepair === "credentials"
            ? "(credentials)"
            : report.requests % (needsRepair === "objects" ? 40 : REFRESH_EVERY) === 0
              ? "(replenish)"
              : null;
        if (due) {
          const repairing = performance.now();
          if (due === "(credentials)") await world.repairCredentials();
          else await world.replenish();
          needsRepair = null;
          spent.set(due, (spent.get(due) ?? 0) + performance.now() - repairing);
        }
        const request = world.injectOptions(operation, plan);
        const sent = performance.now();
        const response = await withDeadline(app.inject(request), () => reproduction(options.seed, request));
        const took = performance.now() - sent;
        spent.set(operation.id, (spent.get(operation.id) ?? 0) + took);
        if (took > report.slowestAnswer[1]) report.slowestAnswer = [operation.id, Math.round(took)];
        report.requests += 1;
        const statusClass = `${String(response.statusCode)[0]}xx`;
        report.byClass[statusClass] = (report.byClass[statusClass] ?? 0) + 1;
        if (response.statusCode < 300) succeeded.add(operation.id);
        const mismatch =
          (refusedEncodedPath(plan, response) ? null : check(operation, response)) ??
          hygieneProblem(operation, request, response);
        const slow = options.slowMs !== undefined && took > options.slowMs;
        const problem = mismatch ?? (slow ? `answered after more than ${options.slowMs} ms` : null);
        if (slow) report.slowAnswers += 1;
        if (problem) {
          if (response.statusCode >= 500) report.serverErrors += 1;
          else if (mismatch) report.mismatches += 1;
          const key = `${operation.id} ${problem}`;
          const known = findings.get(key);
          if (known) known.count += 1;
          else
            findings.set(key, {
              operation: operation.id,
              problem,
              count: 1,
              reproduction: reproduction(options.seed, request, response),
            });
        }
        const repair = world.observe(operation, plan, request, response);
        if (repair === "credentials" || (repair === "objects" && needsRepair === null)) needsRepair = repair;
      }
    }
  }

  for (const { id } of await db.select({ id: bankAccounts.id }).from(bankAccounts)) {
    report.accountsChecked += 1;
    for (const problem of await verifyLedger(db, id)) report.ledgerProblems.push(`account ${id}: ${problem}`);
  }
  report.findings = [...findings.values()];
  report.usersMade = world.usersMade;
  report.neverSucceeded = operations.filter((o) => !succeeded.has(o.id)).map((o) => o.id);
  report.slowest = [...spent]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([id, ms]) => [id, Math.round(ms)]);
  report.milliseconds = Math.round(performance.now() - started);
  return report;
}

/** The summary `pnpm fuzz` prints, and the failure message of the test. */
export function formatReport(report: FuzzReport, label: string): string {
  const classes = Object.entries(report.byClass)
    .sort()
    .map(([cls, n]) => `${cls} ${n}`)
    .join(", ");
  const lines = [
    `fuzz ${label}: seed ${report.seed}, ${report.operations} operations, ${report.requests} requests in ${(report.milliseconds / 1000).toFixed(1)} s (${classes})`,
    `  5xx seen: ${report.serverErrors}; schema mismatches: ${report.mismatches}; ledger problems: ${report.ledgerProblems.length} over ${report.accountsChecked} accounts; fuzzing users: ${report.usersMade}`,
    `  operations never answered 2xx: ${report.neverSucceeded.join(", ") || "none"}`,
    `  slowest operations: ${report.slowest.map(([id, ms]) => `${id} ${(ms / 1000).toFixed(1)} s`).join(", ")}`,
    `  slowest answer: ${report.slowestAnswer[0]} ${report.slowestAnswer[1]} ms; answers over the bound: ${report.slowAnswers}`,
  ];
  for (const finding of report.findings) {
    lines.push(
      `  - ${finding.operation}: ${finding.problem} (x${finding.count})`,
      indent(finding.reproduction),
    );
  }
  for (const problem of report.ledgerProblems.slice(0, 20)) lines.push(`  - ledger: ${problem}`);
  return lines.join("\n");
}

function reproduction(seed: number, request: InjectOptions, response?: LightMyRequestResponse): string {
  const payload = typeof request.payload === "string" ? request.payload : "";
  const lines = [
    `seed ${seed}: ${request.method} ${clip(String(request.url), 500)}`,
    `headers ${JSON.stringify(request.headers)}`,
  ];
  if (payload) lines.push(`body ${clip(payload, 2_000)}`);
  if (response) lines.push(`answered ${response.statusCode} ${clip(response.body, 1_000)}`);
  return lines.join("\n");
}

const clip = (text: string, max: number) =>
  text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;

const indent = (text: string) =>
  text
    .split("\n")
    .map((line) => `      ${line}`)
    .join("\n");

async function withDeadline<T>(promise: Promise<T>, describe: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${REQUEST_DEADLINE_MS} ms:\n${describe()}`)),
      REQUEST_DEADLINE_MS,
    );
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** A seed for one (operation, chunk) from the run's seed: every operation gets its own stream. */
function mix(seed: number, operation: number, chunk: number): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (const n of [operation, chunk]) {
    h = Math.imul(h ^ (n >>> 0), 0x85ebca6b) >>> 0;
    h = (h ^ (h >>> 13)) >>> 0;
  }
  return h | 0;
}

/** 0..n-1 in an order fixed by the seed (Fisher–Yates over a small xorshift). */
function shuffled(n: number, seed: number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  let x = seed || 1;
  for (let i = n - 1; i > 0; i--) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const j = (x >>> 0) % (i + 1);
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  return order;
}
