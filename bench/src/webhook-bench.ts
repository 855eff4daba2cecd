import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { Figure } from "./figures";
import { login, postJson } from "./seed";
import { type QueuedOutbox, seedQueuedOutbox } from "./seed-webhooks";
import type { RunningServer } from "./servers";
import type { WebhookSizes } from "./sizes";
import { type Arrival, badSignatures, startWebhookReceiver } from "./webhook-receiver";

/*
 * Webhook delivery (docs/spec/extensions.md §4), always through real API processes, whose sender
 * (startWebhookDelivery: a pass every 500 ms, claiming 50 due deliveries at a time with SKIP
 * LOCKED and posting 10 at once with the undici poster) posts to a node:http receiver on loopback
 * in this process that answers 204.
 * throughput: an outbox of webhooks × changes pending deliveries is written with no sender running
 * (seed-webhooks.ts: transfers through the use cases, so recordEvent queues them), then a fresh API
 * process is started on that database and drains it; deliveries a second from the first arrival to
 * the last. 2,000 deliveries of one webhook and of four, on PostgreSQL (a scratch database each),
 * and of four on the embedded PGlite (a scratch data folder).
 * latency: the run's API process; transfers through POST /api/v1/internal-transactions/ at a steady
 * pace, each delivery timed at the receiver from the moment the API answered its change (after the
 * commit) to its arrival.
 * Every delivery must arrive once with a valid signature, and the API must list it as succeeded.
 */

const ARRIVAL_TIMEOUT_MS = 90_000;
const SUCCEEDED_TIMEOUT_MS = 15_000;
/** What the sender's loop waits between passes (packages/scheduler/src/webhook-delivery.ts). */
const POLL_MS = 500;

type Engine = "postgres" | "pglite";
const ENGINE_NAMES: Record<Engine, string> = { postgres: "PostgreSQL", pglite: "the embedded PGlite" };

export type ApiDatabase = { url: string } | { dataDir: string };

export interface WebhookBenchContext {
  /** The run's API process (on PostgreSQL), for the latency part. */
  apiUrl: string;
  bankId: string;
  /** The user whose new account the latency part changes. */
  owner: { email: string };
  sizes: WebhookSizes;
  /** A new migrated PostgreSQL database on the run's server, dropped when the bench ends. */
  scratchDatabase: () => Promise<string>;
  /** A new empty folder, removed when the bench ends. */
  scratchFolder: () => Promise<string>;
  /** A real API process on that database (a URL, or the DATA_DIR of an embedded one). */
  startApi: (name: string, database: ApiDatabase) => Promise<RunningServer>;
  /** PostgreSQL, Node, CPUs, load, date: one line. */
  environment: () => string;
}

type ThroughputScenario = WebhookSizes["throughput"][number];

interface ThroughputRun {
  scenario: ThroughputScenario;
  outbox: QueuedOutbox;
  /** First arrival to last, ms. */
  windowMs: number;
  perSecond: number;
}

interface LatencyRun {
  /** Arrival minus the API's answer to the change, ms, in the changes' order. */
  sinceAnswer: number[];
  /** Arrival minus the event's occurred_at (the use case's clock, before the commit), ms. */
  sinceOccurred: number[];
  /** How long the API took to answer each change, ms. */
  answerMs: number[];
  /** The pace the changes were made at, a second. */
  achievedPerSecond: number;
}

export async function benchWebhooks(
  context: WebhookBenchContext,
): Promise<{ report: string; figures: Figure[]; problems: string[] }> {
  const environment = context.environment();
  const problems: string[] = [];
  const throughput: ThroughputRun[] = [];
  for (const scenario of context.sizes.throughput) {
    throughput.push(await measureThroughput(context, scenario, problems));
  }
  const latency = await measureLatency(context, problems);
  return {
    report: formatReport(throughput, latency, context.sizes, environment),
    figures: webhookFigures(throughput, latency),
    problems,
  };
}

async function measureThroughput(
  context: WebhookBenchContext,
  scenario: ThroughputScenario,
  problems: string[],
): Promise<ThroughputRun> {
  const { engine, webhooks, changes } = scenario;
  const receiver = await startWebhookReceiver();
  try {
    // The embedded server keeps its database in DATA_DIR/pglite.
    const dataDir = engine === "pglite" ? await context.scratchFolder() : null;
    const database: ApiDatabase = dataDir ? { dataDir } : { url: await context.scratchDatabase() };
    const outbox = await seedQueuedOutbox(
      "url" in database ? database : { dataDir: join(database.dataDir, "pglite") },
      {
        receiverUrl: receiver.url,
        webhooks,
        changes,
      },
    );
    console.error(
      `Webhooks on ${ENGINE_NAMES[engine]}: queued ${count(outbox.queued)} deliveries (${webhooksText(webhooks)} × ` +
        `${count(changes)} transfers) in ${seconds(outbox.seedMs)} s; starting an API process to send them`,
    );
    const api = await context.startApi(`api-${engine}`, database);
    try {
      for (const webhook of outbox.webhooks)
        await receiver.waitFor(webhook.path, changes, ARRIVAL_TIMEOUT_MS);
      const arrivals = receiver.arrivals;
      const times = arrivals.map((a) => a.at);
      const windowMs = Math.max(...times) - Math.min(...times);
      const run: ThroughputRun = {
        scenario,
        outbox,
        windowMs,
        // The first arrival opens the window: the others arrived in it.
        perSecond: ((arrivals.length - 1) / windowMs) * 1000,
      };
      console.error(
        `  ${count(arrivals.length)} arrived in ${ms(windowMs)} ms: ${run.perSecond.toFixed(0)} deliveries/s`,
      );
      const token = await loginWith(api.url, outbox.owner);
      for (const webhook of outbox.webhooks) {
        const mine = arrivals.filter((a) => a.path === webhook.path);
        problems.push(
          ...checkArrivals(`${engine}, ${webhook.path}`, mine, webhook.secret, changes),
          ...(await checkSucceeded(`${engine}, ${webhook.path}`, api.url, token, webhook.id, changes)),
        );
      }
      return run;
    } finally {
      await api.stop();
    }
  } finally {
    await receiver.close();
  }
}

async function measureLatency(context: WebhookBenchContext, problems: string[]): Promise<LatencyRun> {
  const { changes, perSecond } = context.sizes.latency;
  const { apiUrl } = context;
  const receiver = await startWebhookReceiver();
  try {
    const token = await login(apiUrl, context.owner.email);
    const account = (await postJson(
      apiUrl,
      "/api/v1/bank-accounts/",
      token,
      {
        name: "Webhooks bench",
        bank: context.bankId,
        available_balance: "1000.00",
        posted_balance: "1000.00",
      },
      201,
    )) as { id: string; unallocated_budget: string };
    const goal = (await postJson(
      apiUrl,
      "/api/v1/budgets/",
      token,
      {
        name: "Holiday",
        bank_account: account.id,
        budget_type: "G",
        funding_type: "F",
        target_balance: "500",
        funding_amount: "50",
      },
      201,
    )) as { id: string };
    // For this account only: the owner's other accounts (the funding and import groups') send nothing.
    const webhook = (await postJson(
      apiUrl,
      "/api/v1/webhooks/",
      token,
      { url: `${receiver.url}/latency`, event_types: ["*"], bank_account: account.id },
      201,
    )) as { id: string; secret: string };

    console.error(`Webhooks latency: ${changes} transfers through the API at ${perSecond} a second`);
    const tag = randomBytes(4).toString("hex");
    const answeredAt = new Map<string, number>();
    const answerMs: number[] = [];
    const interval = 1000 / perSecond;
    const started = performance.now();
    for (let change = 0; change < changes; change++) {
      await sleep(Math.max(0, started + change * interval - performance.now()));
      const requestId = `webhooks-bench-${tag}-${change}`;
      const [from, to] =
        change % 2 === 0 ? [account.unallocated_budget, goal.id] : [goal.id, account.unallocated_budget];
      const sent = performance.now();
      await postWithRequestId(apiUrl, "/api/v1/internal-transactions/", token, requestId, {
        bank_account: account.id,
        amount: "1.00",
        src_budget: from,
        dst_budget: to,
      });
      const answered = performance.now();
      answeredAt.set(requestId, answered);
      answerMs.push(answered - sent);
    }
    const achievedPerSecond = ((changes - 1) / (performance.now() - started)) * 1000;
    await receiver.waitFor("/latency", changes, ARRIVAL_TIMEOUT_MS);

    const sinceAnswer: number[] = [];
    const sinceOccurred: number[] = [];
    for (const arrival of receiver.arrivals) {
      const { data } = JSON.parse(arrival.body) as { data: { request_id: string; occurred_at: string } };
      const answered = answeredAt.get(data.request_id);
      if (answered === undefined) {
        problems.push(`latency: a delivery of request ${data.request_id}, which the bench did not make`);
        continue;
      }
      sinceAnswer.push(arrival.at - answered);
      sinceOccurred.push(arrival.epochMs - Date.parse(data.occurred_at));
    }
    problems.push(
      ...checkArrivals("latency", receiver.arrivals, webhook.secret, changes),
      ...(await checkSucceeded("latency", apiUrl, token, webhook.id, changes)),
    );
    return { sinceAnswer, sinceOccurred, answerMs, achievedPerSecond };
  } finally {
    await receiver.close();
  }
}

/** Each of the `expected` events arrived once, signed with the webhook's secret. */
function checkArrivals(where: string, arrivals: Arrival[], secret: string, expected: number): string[] {
  const problems: string[] = [];
  const events = new Set(arrivals.map((a) => a.headers.id));
  if (events.size !== expected)
    problems.push(`${where}: ${events.size} distinct events arrived, expected ${expected}`);
  if (arrivals.length !== events.size)
    problems.push(`${where}: ${arrivals.length - events.size} events arrived more than once`);
  const bad = badSignatures(arrivals, secret);
  if (bad.length > 0) problems.push(`${where}: ${bad.length} deliveries with no valid signature`);
  return problems;
}

/** The API lists the webhook's `expected` deliveries, all succeeded (the sender writes that after the answer). */
async function checkSucceeded(
  where: string,
  apiUrl: string,
  token: string,
  webhookId: string,
  expected: number,
): Promise<string[]> {
  const count = async (query: string) => {
    const path = `/api/v1/webhooks/${webhookId}/deliveries/?page_size=1${query}`;
    const response = await fetch(`${apiUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const text = await response.text();
    if (!response.ok) throw new Error(`GET ${path} answered ${response.status}: ${text.slice(0, 500)}`);
    return (JSON.parse(text) as { count: number }).count;
  };
  const deadline = performance.now() + SUCCEEDED_TIMEOUT_MS;
  let succeeded = await count("&status=succeeded");
  while (succeeded < expected && performance.now() < deadline) {
    await sleep(100);
    succeeded = await count("&status=succeeded");
  }
  const all = await count("");
  return succeeded === expected && all === expected
    ? []
    : [
        `${where}: the API lists ${all} deliveries, ${succeeded} succeeded; expected ${expected}, all succeeded`,
      ];
}

async function loginWith(apiUrl: string, user: { email: string; password: string }) {
  const body = await postJson(apiUrl, "/api/token/", null, user, 200);
  return (body as { access: string }).access;
}

async function postWithRequestId(
  apiUrl: string,
  path: string,
  token: string,
  requestId: string,
  body: unknown,
) {
  const response = await fetch(`${apiUrl}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${token}`,
      "x-request-id": requestId,
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 201)
    throw new Error(`POST ${path} answered ${response.status}: ${text.slice(0, 500)}`);
}

/** The nearest-rank percentile. */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

const ms = (value: number) => Math.round(value).toLocaleString("en");
const seconds = (value: number) => (value / 1000).toFixed(1);
const count = (value: number) => value.toLocaleString("en");

const NO_TARGET =
  "no target was set for webhooks (docs/spec/extensions.md §4 asks for delivery after the commit, at least once, in any order)";

const webhooksText = (n: number) => (n === 1 ? "1 webhook" : `${n} webhooks`);

function webhookFigures(throughput: ThroughputRun[], latency: LatencyRun): Figure[] {
  const figures: Figure[] = throughput.map(({ scenario, outbox, perSecond, windowMs }) => ({
    id: `webhooks.throughput.${scenario.engine}.${scenario.webhooks === 1 ? "one-webhook" : "several-webhooks"}`,
    group: "webhooks",
    scenario:
      `webhooks: deliveries a second, ${count(outbox.queued)} queued for ${webhooksText(scenario.webhooks)}, ` +
      `an API process on ${ENGINE_NAMES[scenario.engine]}`,
    value: perSecond,
    unit: "per second",
    detail: `${count(outbox.queued)} in ${ms(windowMs)} ms`,
    threshold: null,
    note: NO_TARGET,
  }));
  const delay = (p: number): Figure => ({
    id: `webhooks.latency.p${p}`,
    group: "webhooks",
    scenario: `webhooks: the API's answer to a change → its delivery's arrival, p${p} of ${count(latency.sinceAnswer.length)}`,
    value: percentile(latency.sinceAnswer, p),
    unit: "ms",
    detail: `from the event's occurred_at: ${ms(percentile(latency.sinceOccurred, p))} ms`,
    threshold: null,
    note: NO_TARGET,
  });
  return [...figures, delay(50), delay(99)];
}

function formatReport(
  throughput: ThroughputRun[],
  latency: LatencyRun,
  sizes: WebhookSizes,
  environment: string,
): string {
  const rows = throughput.map(
    ({ scenario, outbox, windowMs, perSecond }) =>
      `| ${ENGINE_NAMES[scenario.engine]} | ${webhooksText(scenario.webhooks)} × ${count(scenario.changes)} changes | ` +
      `${count(outbox.queued)} | ${ms(windowMs)} | ${perSecond.toFixed(0)} | ${seconds(outbox.seedMs)} s |`,
  );
  const delays = [50, 90, 99].map(
    (p) =>
      `| p${p} | ${ms(percentile(latency.sinceAnswer, p))} | ${ms(percentile(latency.sinceOccurred, p))} |`,
  );
  return [
    `Each API process's own sender (a pass every ${POLL_MS} ms; 10 workers, each claiming one delivery at a time ` +
      "with SKIP LOCKED and posting it with the undici poster, signed by standardwebhooks) to a node:http receiver on " +
      `loopback in the bench process that answers 204; ${environment}`,
    "",
    "Throughput: webhooks subscribed to `*`, transfers between two budgets made through the use cases with no " +
      "sender running (each queues one delivery a webhook in its transaction), then a fresh API process started on " +
      "that database drains the outbox. Deliveries a second from the first arrival to the last.",
    "",
    "| engine | outbox | deliveries | first → last arrival (ms) | deliveries/s | queued in |",
    "|---|---|---:|---:|---:|---:|",
    ...rows,
    "",
    `Delay: ${count(latency.sinceAnswer.length)} transfers through POST /api/v1/internal-transactions/ to the run's API ` +
      `process at ${sizes.latency.perSecond} a second (achieved ${latency.achievedPerSecond.toFixed(1)}), one webhook ` +
      "on that account; each delivery timed at the receiver from the moment the API's answer reached the bench " +
      "(after the commit), and from the event's occurred_at (the use case's clock, before the commit).",
    "",
    "| percentile | answer → arrival (ms) | occurred_at → arrival (ms) |",
    "|---|---:|---:|",
    ...delays,
    "",
    `- The changes' own answers: p50 ${ms(percentile(latency.answerMs, 50))} ms, p99 ${ms(percentile(latency.answerMs, 99))} ms. ` +
      `A delivery waits for the sender's next pass, ${POLL_MS} ms apart: half of that on average.`,
    "- Every event arrived once with a valid signature, and the API listed every delivery as succeeded.",
    "",
  ].join("\n");
}
