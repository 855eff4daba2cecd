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
import { type Measurement, measurePair, type Target } from "./measure";
import { benchReceipts } from "./receipts-bench";
import { formatReport } from "./report";
import { formatSmokeSummary, type RunRecord, writeResults } from "./results-file";
import { createScratchDatabase } from "./scratch-database";
import { type SeededUsers, seedAccounts, seedUsers } from "./seed";
import { seedTransactions } from "./seed-transactions";
import { startServer, startStoppableServer } from "./servers";
import { type BenchSizes, benchSizes } from "./sizes";
import { type ApiDatabase, benchWebhooks } from "./webhook-bench";

/*
 * `pnpm bench [lists] [funding] [import] [webhooks] [changes] [receipts] [cli] [--smoke]` (no group: all), on PostgreSQL, through the real API process.
 * lists: authenticated GET /api/v1/bank-accounts/, then the first 100 transactions (with
 * allocations) of an account holding 100,000 and of one holding 10,000, each beside a bare fastify +
 * postgres.js server running the same SQL, all loaded by autocannon over loopback in the same run.
 * funding: a year of the funding engine's catch-up on an account of 1,000 budgets (funding-bench.ts).
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
  const apiUrl = await startServer(
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

  const context: GroupContext = { serverUrl, databaseUrl, apiUrl, users, sizes, environment };
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
  const { databaseUrl, apiUrl, users } = context;
  const { load } = context.sizes;
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
  const { floor: floorResult, real: realResult } = await measurePair(floor, real, load);

  const environment =
    `${load.connections} connections, ${load.durationSeconds} s after ${load.warmupSeconds} s warm-up, ` +
    `median of ${load.rounds} alternating rounds; ${environmentAtStart}`;
  const accountsReport = formatReport(
    floorResult,
    [realResult],
    `GET /api/v1/bank-accounts/ as a user owning ${ownerAccounts} accounts; ${environment}`,
  );

  const transactionRuns = await measureTransactionLists(
    databaseUrl,
    { apiUrl, bareUrl, token: ownerToken },
    ownerAccountIds,
    context.sizes,
  );
  const transactionsReport = [
    ...transactionRuns.map(({ rows, floor, real }) =>
      formatReport(
        floor,
        [real],
        `GET /api/v1/transactions/?bank_account=…&page_size=${TRANSACTION_PAGE} (allocations embedded), ` +
          `account holding ${rows.toLocaleString("en")} transactions`,
      ),
    ),
    transactionTargets(transactionRuns),
  ].join("\n");

  const measurements = [floorResult, realResult, ...transactionRuns.flatMap((r) => [r.floor, r.real])];
  const failures = measurements.flatMap((m) => [
    ...(m.failures > 0
      ? [`${m.scenario}: ${m.failures} non-2xx/errors/timeouts; statuses ${JSON.stringify(m.statusCodes)}`]
      : []),
    ...(m.requestsPerSecond > 0 ? [] : [`${m.scenario}: served no request`]),
  ]);
  return {
    section: `${accountsReport}\n${transactionsReport}`,
    figures: listFigures(ownerAccounts, { floor: floorResult, real: realResult }, transactionRuns),
    failures,
  };
}

const TRANSACTION_PAGE = 100;
/** The transactions lists' targets, set by their issue; the accounts list had none. */
const THROUGHPUT_FLOOR = 0.5;
const P50_GROWTH_CEILING = 1.5;

interface TransactionRun {
  rows: number;
  floor: Measurement;
  real: Measurement;
}

/**
 * Seeds two of the owner's accounts (100,000 and 10,000 transactions at full size: latency must not
 * grow with the account) and measures the first page of each through the real API and the bare
 * floor, which must serve the same page.
 */
async function measureTransactionLists(
  databaseUrl: string,
  servers: { apiUrl: string; bareUrl: string; token: string },
  accountIds: string[],
  sizes: BenchSizes,
): Promise<TransactionRun[]> {
  const runs: TransactionRun[] = [];
  for (const [index, rows] of sizes.transactionAccounts.entries()) {
    const accountId = accountIds[index];
    if (!accountId) throw new Error("not enough seeded accounts");
    const ms = await seedTransactions(databaseUrl, accountId, rows);
    console.error(
      `Seeded ${rows} transactions with allocations and snapshots in ${(ms / 1000).toFixed(1)} s`,
    );
  }
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
  return runs;
}

const rowsText = (rows: number) => rows.toLocaleString("en");
const throughput = (pair: { floor: Measurement; real: Measurement }) => ({
  value: pair.real.requestsPerSecond / pair.floor.requestsPerSecond,
  detail: `${pair.real.requestsPerSecond.toFixed(0)} / ${pair.floor.requestsPerSecond.toFixed(0)} req/s`,
});

/** The summary's figures: each page's throughput against the floor's, and the p50's growth with the account. */
function listFigures(
  ownerAccounts: number,
  accounts: { floor: Measurement; real: Measurement },
  runs: TransactionRun[],
): Figure[] {
  const figures: Figure[] = [
    {
      id: "lists.bank-accounts.throughput-ratio",
      group: "lists",
      scenario: `lists: GET bank-accounts (${ownerAccounts} accounts), real/bare throughput`,
      ...throughput(accounts),
      unit: "ratio",
      threshold: null,
      note:
        "the accounts list's issue set no target: it is measured against the bare floor only " +
        `(the transactions lists' floor is ≥ ${THROUGHPUT_FLOOR.toFixed(2)})`,
    },
  ];
  const [big, small] = runs;
  for (const [run, size] of [
    [big, "large"],
    [small, "small"],
  ] as const) {
    if (!run) continue;
    figures.push({
      id: `lists.transactions.${size}-account.throughput-ratio`,
      group: "lists",
      scenario: `lists: GET transactions, account of ${rowsText(run.rows)}, real/bare throughput`,
      ...throughput(run),
      unit: "ratio",
      threshold: { comparison: ">=", value: THROUGHPUT_FLOOR },
      note: null,
    });
  }
  if (big && small)
    figures.push({
      id: "lists.transactions.p50-growth",
      group: "lists",
      scenario: `lists: GET transactions, real p50 at ${rowsText(big.rows)} / at ${rowsText(small.rows)} rows`,
      value: big.real.p50Ms / small.real.p50Ms,
      unit: "ratio",
      detail: `${big.real.p50Ms} / ${small.real.p50Ms} ms; bare ${(big.floor.p50Ms / small.floor.p50Ms).toFixed(2)}`,
      threshold: { comparison: "<=", value: P50_GROWTH_CEILING },
      note: null,
    });
  return figures;
}

/** The two targets, checked on this run's figures. */
function transactionTargets(runs: TransactionRun[]): string {
  const [big, small] = runs;
  if (!big || !small) return "";
  const lines = runs.map(({ rows, floor, real }) => {
    const ratio = real.requestsPerSecond / floor.requestsPerSecond;
    return `- ${rowsText(rows)} rows: real/bare throughput ${ratio.toFixed(2)} (target ≥ 0.50: ${ratio >= THROUGHPUT_FLOOR ? "met" : "MISSED"})`;
  });
  const growth = big.real.p50Ms / small.real.p50Ms;
  const floorGrowth = big.floor.p50Ms / small.floor.p50Ms;
  lines.push(
    `- real p50 at ${rowsText(big.rows)} rows / at ${rowsText(small.rows)} rows: ` +
      `${big.real.p50Ms} / ${small.real.p50Ms} ms = ${growth.toFixed(2)} (target ≤ 1.50: ${growth <= P50_GROWTH_CEILING ? "met" : "MISSED"}); ` +
      `bare: ${floorGrowth.toFixed(2)}`,
  );
  return `${lines.join("\n")}\n`;
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
