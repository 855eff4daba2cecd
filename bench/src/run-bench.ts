import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { withAdminConnection } from "@allot/db/testing/test-databases";
import { benchChanges } from "./changes-bench";
import { benchCliImport } from "./cli-import-bench";
import { benchCliStartup } from "./cli-startup-bench";
import { createCleanups } from "./defer";
import {
  DEFAULT_DATABASE_URL,
  readBenchArgs,
  readBenchEnv,
  SCENARIO_GROUPS,
  type ScenarioGroup,
} from "./env";
import { type Figure, insanityOf } from "./figures";
import { benchFunding } from "./funding-bench";
import { benchImport } from "./import-bench";
import { type LoadSettings, type Measurement, measurePair, type Target } from "./measure";
import { type MemoryReading, sampleMemory } from "./process-memory";
import { benchReceipts } from "./receipts-bench";
import { formatReport } from "./report";
import { formatSmokeSummary, type RunRecord, writeResults } from "./results-file";
import { createScratchDatabase } from "./scratch-database";
import { type SeededUsers, seedAccounts, seedUsers } from "./seed";
import { seedTransactions } from "./seed-transactions";
import { BENCH_SECRETS_KEY } from "./seed-webhooks";
import { startServer, startStoppableServer } from "./servers";
import { type BenchSizes, benchSizes } from "./sizes";
import { type ApiDatabase, benchWebhooks } from "./webhook-bench";

/*
 * `pnpm bench [lists] [funding] [import] [webhooks] [changes] [receipts] [cli] [--smoke]` (no group: all), on PostgreSQL, through the real API process.
 * lists: authenticated GET /api/v1/bank-accounts/ (at the run's connections, then at 32 for its p99),
 * then the first 100 transactions (with allocations) of an account holding 1,000,000 and of one
 * holding 10,000, each beside a bare fastify + postgres.js server running the same SQL, all loaded by
 * autocannon over loopback in the same run; the API's memory is sampled throughout.
 * funding: a year of the funding engine's catch-up on an account of 1,000 budgets, and the forecast of
 * a year ahead of the same mix (funding-bench.ts).
 * import: sync-scrape of 5,000 rows into an account of 100,000 (import-bench.ts), then `allot import
 * csv` of a 50,000-row export end to end (cli-import-bench.ts).
 * webhooks: deliveries a second as fresh API processes (on PostgreSQL and on the embedded PGlite)
 * drain a queued outbox of 2,000, and the delay from a change's answer to its delivery's arrival
 * at p50 and p99 through the run's API process (webhook-bench.ts).
 * changes: the change feed read to its end in pages of 500 as a client syncs, from the start on an
 * account of 100,000 transactions, then from that sync's cursor after a 5,000-row sync-scrape
 * (changes-bench.ts).
 * receipts: 5 MB receipts uploaded (multipart PATCH) and downloaded one at a time through API
 * processes storing on local disk and on S3 (s3rver on loopback), and the API's RSS while 10 are
 * uploaded at once, wave after wave (receipts-bench.ts).
 * cli: `allot --help` and `allot whoami` from spawn to exit, built and through tsx (cli-startup-bench.ts).
 * Prints markdown tables and keeps them in results/latest.md, after a summary of every scenario
 * against its target, and the same figures in results/latest.json (results-file.ts; the groups not
 * run keep their last figures). A run with a failure writes nothing.
 * --smoke: every scenario at a tiny size (sizes.ts), checked for sane answers only; prints its table,
 * writes no file, and exits non-zero when a scenario breaks.
 */

const RESULTS_MARKDOWN = fileURLToPath(new URL("../results/latest.md", import.meta.url));
const RESULTS_JSON = fileURLToPath(new URL("../results/latest.json", import.meta.url));
const BARE_SERVER = fileURLToPath(new URL("./bare-server.ts", import.meta.url));
const GC_ON_SIGNAL = fileURLToPath(new URL("./gc-on-signal.mjs", import.meta.url));
const API_DIR = dirname(fileURLToPath(import.meta.resolve("@allot/api/package.json")));
const BUILD_API = join(API_DIR, "scripts/build.mjs");
/** The built API as `pnpm start` runs it: scripts/run-server execs Node with the settings it starts with. */
const API_SERVER = join(API_DIR, "scripts/run-server");
const BUILD_CLI = fileURLToPath(import.meta.resolve("@allot/cli/scripts/build.mjs"));
/** A smoke run that hangs must still fail CI, not stall it. */
const SMOKE_DEADLINE_MS = 5 * 60_000;

const { defer, runAll: cleanUp } = createCleanups();

interface GroupOutcome {
  section: string;
  figures: Figure[];
  failures: string[];
}

async function main() {
  const args = process.argv.slice(2);
  const { groups, smoke } = readBenchArgs(args);
  const { serverUrl, usedDefaultServerUrl, load, cpuProfileDir } = readBenchEnv();
  const sizes = benchSizes(load, smoke);
  if (usedDefaultServerUrl) console.error(`DATABASE_URL is not set; using ${DEFAULT_DATABASE_URL}`);
  if (smoke) {
    setTimeout(() => {
      console.error(`FAILED: the smoke slice did not finish within ${SMOKE_DEADLINE_MS / 1000} s`);
      void cleanUp().finally(() => process.exit(1));
    }, SMOKE_DEADLINE_MS).unref();
  }
  // Other work on the machine slows every scenario; the report says how busy it was.
  const started = new Date();
  const loadAtStart = loadAverage();
  // Read now: the code measured is the checkout as the run starts.
  const git = gitState();
  const loadAtGroup: Partial<Record<ScenarioGroup, number[]>> = {};

  // The `allot` the import and cli groups run is the built command, made from this checkout; the
  // API processes are the built server, as `pnpm start` builds and runs it.
  execFileSync(process.execPath, [BUILD_CLI], { stdio: "inherit" });
  execFileSync(process.execPath, [BUILD_API], { stdio: "inherit" });
  const databaseUrl = await createScratchDatabase(serverUrl, defer);
  const users = await seedUsers(databaseUrl);
  const api = await startStoppableServer(
    {
      name: "api",
      entry: API_SERVER,
      cwd: API_DIR,
      env: apiEnv({ url: databaseUrl }, await mailDir()),
      nodeArgs: cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfileDir}`] : [],
    },
    defer,
  );
  const postgresVersion = String(
    await withAdminConnection(serverUrl, async (sql) => (await sql`show server_version`)[0]?.server_version),
  );
  const environment = () =>
    `PostgreSQL ${postgresVersion}, Node ${process.version}, ${availableParallelism()} CPUs ` +
    `(load average ${(loadavg()[0] ?? 0).toFixed(1)} at start), ${new Date().toISOString()}`;

  const context: GroupContext = {
    serverUrl,
    databaseUrl,
    apiUrl: api.url,
    apiPid: api.pid,
    users,
    sizes,
    environment,
  };
  const runGroup: Record<ScenarioGroup, (context: GroupContext) => Promise<GroupOutcome>> = {
    lists: benchLists,
    funding: benchFundingGroup,
    import: benchImportGroup,
    webhooks: benchWebhooksGroup,
    changes: benchChangesGroup,
    receipts: benchReceiptsGroup,
    cli: benchCliGroup,
  };

  const sections: Partial<Record<ScenarioGroup, string>> = {};
  const figures: Figure[] = [];
  const failures: string[] = [];
  for (const group of SCENARIO_GROUPS.filter((g) => groups.has(g))) {
    loadAtGroup[group] = loadAverage();
    console.error(`${smoke ? "Smoke: " : ""}${group}`);
    // A group that breaks does not hide how the others fare.
    try {
      const outcome = await runGroup[group](context);
      if (!smoke) process.stdout.write(`${outcome.section.trimEnd()}\n\n`);
      sections[group] = outcome.section;
      figures.push(...outcome.figures);
      failures.push(...outcome.failures.map((failure) => `${group}: ${failure}`));
      if (outcome.figures.length === 0) failures.push(`${group}: produced no figure`);
    } catch (error) {
      failures.push(`${group}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }
  failures.push(...figures.flatMap((figure) => insanityOf(figure) ?? []));

  if (smoke) {
    process.stdout.write(formatSmokeSummary(figures, failures));
    console.error(
      `Smoke slice: ${failures.length === 0 ? "passed" : "FAILED"} in ${secondsSince(started)} s`,
    );
    if (failures.length > 0) process.exitCode = 1;
    return;
  }
  for (const failure of failures) console.error(`FAILED: ${failure}`);
  if (failures.length > 0) {
    console.error(`Not writing ${RESULTS_MARKDOWN} nor ${RESULTS_JSON}: the run had failures.`);
    process.exitCode = 1;
    return;
  }
  const run: RunRecord = {
    id: started.toISOString(),
    finished: new Date().toISOString(),
    command: ["pnpm bench", ...args.filter((arg) => arg !== "--")].join(" "),
    groups: SCENARIO_GROUPS.filter((g) => groups.has(g)),
    ...git,
    postgres: postgresVersion,
    node: process.version,
    cpus: availableParallelism(),
    loadAverage: { start: loadAtStart, groups: loadAtGroup, end: loadAverage() },
    settings: { ...sizes },
  };
  const summary = await writeResults({
    markdownFile: RESULTS_MARKDOWN,
    jsonFile: RESULTS_JSON,
    run,
    figures,
    sections,
  });
  process.stdout.write(summary);
  console.error(`Wrote ${RESULTS_MARKDOWN} and ${RESULTS_JSON} in ${secondsSince(started)} s`);
}

/** os.loadavg() (1, 5, 15 minutes) to two decimals. */
const loadAverage = () => loadavg().map((value) => Math.round(value * 100) / 100);

const secondsSince = (start: Date) => ((Date.now() - start.getTime()) / 1000).toFixed(0);

/** The checkout's HEAD, and whether tracked files differ from it (other engineers' work in progress). */
function gitState(): { commit: string | null; uncommittedChanges: boolean | null } {
  const git = (...args: string[]) =>
    execFileSync("git", args, {
      cwd: dirname(BARE_SERVER),
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
  try {
    return {
      commit: git("rev-parse", "HEAD").trim(),
      uncommittedChanges: git("status", "--porcelain", "--untracked-files=no").trim() !== "",
    };
  } catch {
    return { commit: null, uncommittedChanges: null };
  }
}

interface GroupContext {
  /** The PostgreSQL server the scratch databases are made on. */
  serverUrl: string;
  databaseUrl: string;
  apiUrl: string;
  /** The run's API process, whose memory the lists group reads. */
  apiPid: number;
  users: SeededUsers;
  sizes: BenchSizes;
  /** PostgreSQL, Node, CPUs, load now, date: one line for a section. */
  environment: () => string;
}

async function benchFundingGroup(context: GroupContext): Promise<GroupOutcome> {
  const funding = await benchFunding({
    databaseUrl: context.databaseUrl,
    apiUrl: context.apiUrl,
    bankId: context.users.bankId,
    funder: context.users.funder,
    rounds: context.sizes.funding.rounds,
    budgets: context.sizes.funding.budgets,
    environment: context.environment(),
  });
  return { section: funding.report, figures: funding.figures, failures: funding.problems };
}

async function benchImportGroup(context: GroupContext): Promise<GroupOutcome> {
  const common = {
    databaseUrl: context.databaseUrl,
    apiUrl: context.apiUrl,
    bankId: context.users.bankId,
    owner: context.users.funder,
  };
  const imported = await benchImport({
    ...common,
    sizes: context.sizes.sync,
    environment: context.environment(),
  });
  const cli = await benchCliImport({
    ...common,
    rows: context.sizes.csvRows,
    environment: context.environment(),
  });
  return {
    section: `${imported.report}\n${cli.report}`,
    figures: [...imported.figures, ...cli.figures],
    failures: [...imported.problems, ...cli.problems],
  };
}

async function benchWebhooksGroup(context: GroupContext): Promise<GroupOutcome> {
  const webhooks = await benchWebhooks({
    apiUrl: context.apiUrl,
    bankId: context.users.bankId,
    owner: context.users.funder,
    sizes: context.sizes.webhooks,
    scratchDatabase: () => createScratchDatabase(context.serverUrl, defer),
    scratchFolder: () => scratchFolder("allot-bench-data-"),
    startApi: async (name, database) =>
      startStoppableServer(
        { name, entry: API_SERVER, cwd: API_DIR, env: apiEnv(database, await mailDir()) },
        defer,
      ),
    environment: context.environment,
  });
  return { section: webhooks.report, figures: webhooks.figures, failures: webhooks.problems };
}

async function benchChangesGroup(context: GroupContext): Promise<GroupOutcome> {
  const changes = await benchChanges({
    databaseUrl: context.databaseUrl,
    apiUrl: context.apiUrl,
    bankId: context.users.bankId,
    owner: context.users.funder,
    sizes: context.sizes.changes,
    environment: context.environment(),
  });
  return { section: changes.report, figures: changes.figures, failures: changes.problems };
}

async function benchReceiptsGroup(context: GroupContext): Promise<GroupOutcome> {
  const receipts = await benchReceipts({
    bankId: context.users.bankId,
    owner: context.users.funder,
    sizes: context.sizes.receipts,
    startApi: async (name, storage) =>
      startStoppableServer(
        {
          name,
          entry: API_SERVER,
          cwd: API_DIR,
          env: { ...apiEnv({ url: context.databaseUrl }, await mailDir()), ...storage },
          preload: GC_ON_SIGNAL,
        },
        defer,
      ),
    scratchFolder: () => scratchFolder("allot-bench-receipts-"),
    environment: context.environment,
  });
  return { section: receipts.report, figures: receipts.figures, failures: receipts.problems };
}

async function benchCliGroup(context: GroupContext): Promise<GroupOutcome> {
  const cli = await benchCliStartup({
    apiUrl: context.apiUrl,
    owner: context.users.funder,
    rounds: context.sizes.cliSpawns,
    environment: context.environment(),
  });
  return { section: cli.report, figures: cli.figures, failures: cli.problems };
}

/** The lists group: the accounts page, then the transaction pages, each beside the bare floor. */
async function benchLists(context: GroupContext): Promise<GroupOutcome> {
  // The API's memory through the whole group: seeding, every load, every page.
  const memory = sampleMemory(context.apiPid, MEMORY_SAMPLE_MS);
  let measured: MeasuredLists;
  try {
    measured = await measureLists(context);
  } catch (error) {
    await memory.stop().catch(() => {});
    throw error;
  }
  const apiMemory = peakMemory(await memory.stop());
  const { accounts, accountsAtP99Load, runs, seeded } = measured;

  const measurements = [accounts, accountsAtP99Load, ...runs].flatMap((pair) => [pair.floor, pair.real]);
  const failures = measurements.flatMap((m) => [
    ...(m.failures > 0
      ? [`${m.scenario}: ${m.failures} non-2xx/errors/timeouts; statuses ${JSON.stringify(m.statusCodes)}`]
      : []),
    ...(m.requestsPerSecond > 0 ? [] : [`${m.scenario}: served no request`]),
  ]);
  return {
    section: [
      measured.section,
      listTargets(measured),
      ...seeded.map(
        ({ rows, ms }) =>
          `- seeding ${rowsText(rows)} transactions (allocations, snapshots, balances, vacuum analyze): ` +
          `${(ms / 1000).toFixed(1)} s`,
      ),
      `- the API's memory through the group: VmHWM ${megabytes(apiMemory.highWaterMark)} MB at its end ` +
        `(target < ${API_MEMORY_CEILING_MB} MB: ${apiMemory.highWaterMark / 1e6 < API_MEMORY_CEILING_MB ? "met" : "MISSED"}); ` +
        `most sampled VmRSS ${megabytes(apiMemory.rss)} MB, every ${MEMORY_SAMPLE_MS} ms`,
      "",
    ].join("\n"),
    figures: listFigures(measured, apiMemory),
    failures,
  };
}

/** Targets set by issue 21, each against the floor measured in the same run. */
const ACCOUNTS_THROUGHPUT_FLOOR = 0.6;
const ACCOUNTS_P99_CEILING = 2;
const TRANSACTIONS_THROUGHPUT_FLOOR = 0.85;
const P50_GROWTH_CEILING = 1.3;
const API_MEMORY_CEILING_MB = 250;

const TRANSACTION_PAGE = 100;
/** Often enough to see the API's RSS move; VmHWM catches any peak between two readings. */
const MEMORY_SAMPLE_MS = 250;

interface Pair {
  floor: Measurement;
  real: Measurement;
}

interface TransactionRun extends Pair {
  rows: number;
}

interface MeasuredLists {
  ownerAccounts: number;
  /** The accounts page at the run's connections, and at sizes.listsP99Connections. */
  accounts: Pair & { connections: number };
  accountsAtP99Load: Pair & { connections: number };
  /** The big account's page, then the small one's. */
  runs: TransactionRun[];
  seeded: { rows: number; ms: number }[];
  /** The markdown tables. */
  section: string;
}

async function measureLists(context: GroupContext): Promise<MeasuredLists> {
  const { databaseUrl, apiUrl, users } = context;
  const { load, listsP99Connections } = context.sizes;
  const environmentAtStart = context.environment();
  const bareUrl = await startServer(
    {
      name: "bare",
      entry: BARE_SERVER,
      cwd: dirname(BARE_SERVER),
      env: { DATABASE_URL: databaseUrl, BENCH_USER_ID: String(users.owner.id) },
    },
    defer,
  );
  const { ownerToken, ownerAccounts, ownerAccountIds } = await seedAccounts(apiUrl, users);

  const real = { url: `${apiUrl}/api/v1/bank-accounts/`, headers: { authorization: `Bearer ${ownerToken}` } };
  const floor = { url: `${bareUrl}/bank-accounts/`, headers: {} };
  await expectSamePage(real, floor, ownerAccounts);

  console.error(
    `Measuring each for ${load.warmupSeconds} s warm-up + ${load.durationSeconds} s, ${load.connections} connections, ` +
      `${load.rounds} alternating rounds`,
  );
  const accounts = { ...(await measurePair(floor, real, load)), connections: load.connections };
  const p99Load: LoadSettings = { ...load, connections: listsP99Connections };
  console.error(`Measuring the accounts list at ${listsP99Connections} connections`);
  const accountsAtP99Load = {
    ...(await measurePair(floor, real, p99Load)),
    connections: listsP99Connections,
  };

  const how = (settings: LoadSettings) =>
    `${settings.connections} connections, ${settings.durationSeconds} s after ${settings.warmupSeconds} s warm-up, ` +
    `median of ${settings.rounds} alternating rounds; ${environmentAtStart}`;
  const accountsPage = `GET /api/v1/bank-accounts/ as a user owning ${ownerAccounts} accounts`;
  const accountsReports = [
    formatReport(accounts.floor, [accounts.real], `${accountsPage}; ${how(load)}`),
    formatReport(accountsAtP99Load.floor, [accountsAtP99Load.real], `${accountsPage}; ${how(p99Load)}`),
  ];

  const { runs, seeded } = await measureTransactionLists(
    databaseUrl,
    { apiUrl, bareUrl, token: ownerToken },
    ownerAccountIds,
    context.sizes,
  );
  const transactionsReports = runs.map(({ rows, floor, real }) =>
    formatReport(
      floor,
      [real],
      `GET /api/v1/transactions/?bank_account=…&page_size=${TRANSACTION_PAGE} (allocations embedded), ` +
        `account holding ${rowsText(rows)} transactions`,
    ),
  );
  return {
    ownerAccounts,
    accounts,
    accountsAtP99Load,
    runs,
    seeded,
    section: [...accountsReports, ...transactionsReports].join("\n"),
  };
}

/**
 * Seeds two of the owner's accounts (1,000,000 and 10,000 transactions at full size: latency must
 * not grow with the account) and measures the first page of each through the real API and the bare
 * floor, which must serve the same page.
 */
async function measureTransactionLists(
  databaseUrl: string,
  servers: { apiUrl: string; bareUrl: string; token: string },
  accountIds: string[],
  sizes: BenchSizes,
): Promise<{ runs: TransactionRun[]; seeded: { rows: number; ms: number }[] }> {
  const seeded: { rows: number; ms: number }[] = [];
  for (const [index, rows] of sizes.transactionAccounts.entries()) {
    const accountId = accountIds[index];
    if (!accountId) throw new Error("not enough seeded accounts");
    const ms = await seedTransactions(databaseUrl, accountId, rows);
    seeded.push({ rows, ms });
    console.error(
      `Seeded ${rows} transactions with allocations and snapshots in ${(ms / 1000).toFixed(1)} s`,
    );
  }
  const runs: TransactionRun[] = [];
  for (const [index, rows] of sizes.transactionAccounts.entries()) {
    const query = `?bank_account=${accountIds[index]}&page_size=${TRANSACTION_PAGE}`;
    const real = {
      url: `${servers.apiUrl}/api/v1/transactions/${query}`,
      headers: { authorization: `Bearer ${servers.token}` },
    };
    const floor = { url: `${servers.bareUrl}/transactions/${query}`, headers: {} };
    await expectSameTransactionPage(real, floor, rows);
    console.error(`Measuring the transactions list at ${rows} rows`);
    runs.push({ rows, ...(await measurePair(floor, real, sizes.load)) });
  }
  return { runs, seeded };
}

const rowsText = (rows: number) => rows.toLocaleString("en");
const megabytes = (bytes: number) => (bytes / 1e6).toFixed(1);
const throughput = (pair: Pair) => ({
  value: pair.real.requestsPerSecond / pair.floor.requestsPerSecond,
  detail: `${pair.real.requestsPerSecond.toFixed(0)} / ${pair.floor.requestsPerSecond.toFixed(0)} req/s`,
});
/** autocannon's histogram holds whole milliseconds: a floor p99 under 1 ms counts as 1. */
const p99Ratio = (pair: Pair) => pair.real.p99Ms / Math.max(pair.floor.p99Ms, 1);
const p50Growth = (runs: TransactionRun[]) => {
  const [big, small] = runs;
  return big && small ? { big, small, value: big.real.p50Ms / small.real.p50Ms } : null;
};

/** The group's highest sampled VmRSS, and the kernel's VmHWM (the peak, no sample missed) at its end. */
function peakMemory(readings: MemoryReading[]): MemoryReading {
  return {
    rss: Math.max(...readings.map((r) => r.rss)),
    highWaterMark: Math.max(...readings.map((r) => r.highWaterMark)),
  };
}

/** The summary's figures: each page against the floor, the p50's growth with the account, the API's memory. */
function listFigures(lists: MeasuredLists, apiMemory: MemoryReading): Figure[] {
  const { accounts, accountsAtP99Load, runs, seeded } = lists;
  const figures: Figure[] = [
    {
      id: "lists.bank-accounts.throughput-ratio",
      group: "lists",
      scenario: `lists: GET bank-accounts (${lists.ownerAccounts} accounts), real/bare throughput`,
      ...throughput(accounts),
      unit: "ratio",
      threshold: { comparison: ">=", value: ACCOUNTS_THROUGHPUT_FLOOR },
      note: null,
    },
    {
      id: "lists.bank-accounts.p99-ratio-32",
      group: "lists",
      scenario:
        `lists: GET bank-accounts (${lists.ownerAccounts} accounts) at ${accountsAtP99Load.connections} ` +
        "connections, real/bare p99",
      value: p99Ratio(accountsAtP99Load),
      unit: "ratio",
      detail:
        `${accountsAtP99Load.real.p99Ms} / ${accountsAtP99Load.floor.p99Ms} ms; ` +
        `${accountsAtP99Load.real.requestsPerSecond.toFixed(0)} / ${accountsAtP99Load.floor.requestsPerSecond.toFixed(0)} req/s`,
      threshold: { comparison: "<=", value: ACCOUNTS_P99_CEILING },
      note: null,
    },
  ];
  for (const [run, size] of [
    [runs[0], "large"],
    [runs[1], "small"],
  ] as const) {
    if (!run) continue;
    figures.push({
      id: `lists.transactions.${size}-account.throughput-ratio`,
      group: "lists",
      scenario: `lists: GET transactions, account of ${rowsText(run.rows)}, real/bare throughput`,
      ...throughput(run),
      unit: "ratio",
      threshold: { comparison: ">=", value: TRANSACTIONS_THROUGHPUT_FLOOR },
      note: null,
    });
  }
  const growth = p50Growth(runs);
  if (growth)
    figures.push({
      id: "lists.transactions.p50-growth",
      group: "lists",
      scenario: `lists: GET transactions, real p50 at ${rowsText(growth.big.rows)} / at ${rowsText(growth.small.rows)} rows`,
      value: growth.value,
      unit: "ratio",
      detail:
        `${growth.big.real.p50Ms} / ${growth.small.real.p50Ms} ms; ` +
        `bare ${(growth.big.floor.p50Ms / growth.small.floor.p50Ms).toFixed(2)}`,
      threshold: { comparison: "<=", value: P50_GROWTH_CEILING },
      note: null,
    });
  const big = seeded[0];
  if (big)
    figures.push({
      id: "lists.transactions.seed-large-account",
      group: "lists",
      scenario: `lists: seeding the account of ${rowsText(big.rows)} transactions`,
      value: big.ms,
      unit: "ms",
      detail: null,
      threshold: null,
      note:
        "the seeding is the bench's own set-up, not the API's work: kept in view because it bounds the " +
        "lists group's time (issue 21 wants the whole group under about 5 minutes on 2 cores)",
    });
  figures.push({
    id: "lists.api-memory.peak",
    group: "lists",
    scenario: "lists: the API process's peak memory through the group (VmHWM)",
    value: apiMemory.highWaterMark / 1e6,
    unit: "MB",
    detail: `most sampled VmRSS ${megabytes(apiMemory.rss)} MB`,
    threshold: { comparison: "<", value: API_MEMORY_CEILING_MB },
    note: null,
  });
  return figures;
}

/** Issue 21's targets, checked on this run's figures. */
function listTargets({ accounts, accountsAtP99Load, runs }: MeasuredLists): string {
  const verdict = (met: boolean) => (met ? "met" : "MISSED");
  const accountsRatio = throughput(accounts).value;
  const p99 = p99Ratio(accountsAtP99Load);
  const lines = [
    `- accounts list at ${accounts.connections} connections: real/bare throughput ${accountsRatio.toFixed(2)} ` +
      `(target ≥ ${ACCOUNTS_THROUGHPUT_FLOOR.toFixed(2)}: ${verdict(accountsRatio >= ACCOUNTS_THROUGHPUT_FLOOR)})`,
    `- accounts list at ${accountsAtP99Load.connections} connections: real/bare p99 ` +
      `${accountsAtP99Load.real.p99Ms} / ${accountsAtP99Load.floor.p99Ms} ms = ${p99.toFixed(2)} ` +
      `(target ≤ ${ACCOUNTS_P99_CEILING.toFixed(2)}: ${verdict(p99 <= ACCOUNTS_P99_CEILING)})`,
    ...runs.map(({ rows, floor, real }) => {
      const ratio = real.requestsPerSecond / floor.requestsPerSecond;
      return (
        `- transactions, ${rowsText(rows)} rows: real/bare throughput ${ratio.toFixed(2)} ` +
        `(target ≥ ${TRANSACTIONS_THROUGHPUT_FLOOR.toFixed(2)}: ${verdict(ratio >= TRANSACTIONS_THROUGHPUT_FLOOR)})`
      );
    }),
  ];
  const growth = p50Growth(runs);
  if (growth)
    lines.push(
      `- growth: real p50 at ${rowsText(growth.big.rows)} rows / at ${rowsText(growth.small.rows)} rows: ` +
        `${growth.big.real.p50Ms} / ${growth.small.real.p50Ms} ms = ${growth.value.toFixed(2)} ` +
        `(target ≤ ${P50_GROWTH_CEILING.toFixed(2)}: ${verdict(growth.value <= P50_GROWTH_CEILING)}); ` +
        `bare: ${(growth.big.floor.p50Ms / growth.small.floor.p50Ms).toFixed(2)}`,
    );
  return lines.join("\n");
}

/** Both serve the same page; `next` links differ only in where each server lives. */
async function expectSameTransactionPage(real: Target, floor: Target, expectedCount: number) {
  type Page = { count: number; next: string | null; results: unknown[] };
  const [realPage, floorPage] = (await Promise.all([getJson(real), getJson(floor)])) as [Page, Page];
  if (realPage.count !== expectedCount) {
    throw new Error(`The real API lists ${realPage.count} transactions, expected ${expectedCount}`);
  }
  const linkQuery = (link: string | null) => (link ? new URL(link).search : null);
  const comparable = (page: Page) => ({ ...page, next: linkQuery(page.next) });
  if (
    realPage.results.length !== TRANSACTION_PAGE ||
    !isDeepStrictEqual(comparable(realPage), comparable(floorPage))
  ) {
    throw new Error(
      "The bare server's transactions page differs from the real one:\n" +
        `real: ${JSON.stringify(realPage).slice(0, 1500)}\nbare: ${JSON.stringify(floorPage).slice(0, 1500)}`,
    );
  }
}

/** Where the bench API writes its mail (imports and funding runs email their owners); removed after. */
const mailDir = () => scratchFolder("allot-bench-mail-");

/** A new folder under the system's temporary one, removed when the bench ends. */
async function scratchFolder(prefix: string) {
  const directory = await mkdtemp(join(tmpdir(), prefix));
  defer(() => rm(directory, { recursive: true, force: true }));
  return directory;
}

/** An API process's settings, on PostgreSQL or (DATA_DIR, none of our DATABASE_URL) on the embedded database. */
function apiEnv(database: ApiDatabase, mailDirectory: string): Record<string, string | undefined> {
  return {
    ...("url" in database
      ? { DATABASE_URL: database.url }
      : { DATABASE_URL: undefined, DATA_DIR: database.dataDir }),
    JWT_SECRET: randomBytes(48).toString("base64url"),
    SECRETS_KEY: BENCH_SECRETS_KEY,
    LOG_LEVEL: "warn",
    MAIL_TRANSPORT: "file",
    MAIL_DIR: mailDirectory,
    // The bench measures serving, not refusing: no throttle may answer 429. All five are set because
    // apps/api/src/env.ts's defaults reach the app unparsed (zod 4's `.default` skips the transform).
    THROTTLE_RATE_USER: "10000000/minute",
    THROTTLE_RATE_ANON: "10000/minute",
    THROTTLE_RATE_LOGIN_IP: "10000/minute",
    THROTTLE_RATE_LOGIN_EMAIL: "10000/minute",
    THROTTLE_RATE_REFRESH_IP: "10000/minute",
    // The webhooks group's receiver listens on loopback over http.
    WEBHOOK_ALLOW_HTTP: "true",
    WEBHOOK_ALLOW_PRIVATE: "true",
  };
}

/** The floor only means something if it serves the very same page: same accounts, order and fields. */
async function expectSamePage(real: Target, floor: Target, expectedCount: number) {
  const [realPage, floorPage] = await Promise.all([getJson(real), getJson(floor)]);
  const count = (realPage as { count?: unknown }).count;
  if (count !== expectedCount) {
    throw new Error(`The real API lists ${String(count)} accounts for the owner, expected ${expectedCount}`);
  }
  if (!isDeepStrictEqual(realPage, floorPage)) {
    throw new Error(
      "The bare server's page differs from the real one:\n" +
        `real: ${JSON.stringify(realPage).slice(0, 1500)}\nbare: ${JSON.stringify(floorPage).slice(0, 1500)}`,
    );
  }
}

async function getJson({ url, headers }: Target) {
  const response = await fetch(url, { headers });
  const text = await response.text();
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as unknown;
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, async () => {
    console.error(`${signal}: stopping the servers and dropping the scratch database`);
    await cleanUp();
    process.exit(130);
  });
}

try {
  await main();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
