import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { withAdminConnection } from "@allot/db/testing/test-databases";
import { benchCliImport } from "./cli-import-bench";
import { createCleanups } from "./defer";
import { DEFAULT_DATABASE_URL, readBenchEnv, readScenarioGroups, type ScenarioGroup } from "./env";
import { benchFunding } from "./funding-bench";
import { benchImport } from "./import-bench";
import { type LoadSettings, type Measurement, measurePair, type Target } from "./measure";
import { formatReport } from "./report";
import { writeResults } from "./results-file";
import { createScratchDatabase } from "./scratch-database";
import { type SeededUsers, seedAccounts, seedUsers } from "./seed";
import { seedTransactions } from "./seed-transactions";
import { startServer } from "./servers";

/*
 * `pnpm bench [lists] [funding] [import]` (no argument: all), on PostgreSQL, through the real API process.
 * lists: authenticated GET /api/v1/bank-accounts/, then the first 100 transactions (with
 * allocations) of an account holding 100,000 and of one holding 10,000, each beside a bare fastify +
 * postgres.js server running the same SQL, all loaded by autocannon over loopback in the same run.
 * funding: a year of the funding engine's catch-up on an account of 1,000 budgets (funding-bench.ts).
 * import: sync-scrape of 5,000 rows into an account of 100,000 (import-bench.ts), then `allot import
 * csv` of a 50,000-row export end to end (cli-import-bench.ts).
 * Prints markdown tables and keeps them in results/latest.md (the sections of groups not run stay).
 */

const RESULTS_FILE = fileURLToPath(new URL("../results/latest.md", import.meta.url));
const BARE_SERVER = fileURLToPath(new URL("./bare-server.ts", import.meta.url));
const API_DIR = dirname(fileURLToPath(import.meta.resolve("@allot/api/package.json")));

const { defer, runAll: cleanUp } = createCleanups();

async function main() {
  const groups = readScenarioGroups(process.argv.slice(2));
  const { serverUrl, usedDefaultServerUrl, load } = readBenchEnv();
  if (usedDefaultServerUrl) console.error(`DATABASE_URL is not set; using ${DEFAULT_DATABASE_URL}`);
  // Other work on the machine slows every scenario; the report says how busy it was.
  const loadAtStart = loadavg()[0] ?? 0;

  const databaseUrl = await createScratchDatabase(serverUrl, defer);
  const users = await seedUsers(databaseUrl);
  const apiUrl = await startServer(
    {
      name: "api",
      entry: join(API_DIR, "src/main.ts"),
      cwd: API_DIR,
      env: apiEnv(databaseUrl, await mailDir()),
    },
    defer,
  );
  const postgresVersion = await withAdminConnection(
    serverUrl,
    async (sql) => (await sql`show server_version`)[0]?.server_version,
  );
  const environment = (loadAverage: number) =>
    `PostgreSQL ${postgresVersion}, Node ${process.version}, ${availableParallelism()} CPUs ` +
    `(load average ${loadAverage.toFixed(1)} at start), ${new Date().toISOString()}`;

  const sections: Partial<Record<ScenarioGroup, string>> = {};
  const failures: string[] = [];
  if (groups.has("lists")) {
    const lists = await benchLists({
      databaseUrl,
      apiUrl,
      users,
      load,
      environment: environment(loadAtStart),
    });
    sections.lists = lists.report;
    failures.push(...lists.failures);
  }
  if (groups.has("funding")) {
    const funding = await benchFunding({
      databaseUrl,
      apiUrl,
      bankId: users.bankId,
      funder: users.funder,
      rounds: load.rounds,
      environment: environment(groups.has("lists") ? (loadavg()[0] ?? 0) : loadAtStart),
    });
    process.stdout.write(`${sections.lists ? "\n" : ""}${funding.report}`);
    sections.funding = funding.report;
    failures.push(...funding.problems);
  }

  if (groups.has("import")) {
    const imported = await benchImport({
      databaseUrl,
      apiUrl,
      bankId: users.bankId,
      owner: users.funder,
      rounds: load.rounds,
      environment: environment(groups.size > 1 ? (loadavg()[0] ?? 0) : loadAtStart),
    });
    const cli = await benchCliImport({
      databaseUrl,
      apiUrl,
      bankId: users.bankId,
      owner: users.funder,
      environment: environment(loadavg()[0] ?? 0),
    });
    const report = `${imported.report}\n${cli.report}`;
    process.stdout.write(`\n${report}`);
    sections.import = report;
    failures.push(...imported.problems, ...cli.problems);
  }

  for (const failure of failures) console.error(`FAILED: ${failure}`);
  if (failures.length > 0) {
    console.error(`Not writing ${RESULTS_FILE}: the run had failures.`);
    process.exitCode = 1;
    return;
  }
  await writeResults(RESULTS_FILE, sections);
  console.error(`Wrote ${RESULTS_FILE}`);
}

/** The lists group: the accounts page, then the transaction pages, each beside the bare floor. */
async function benchLists(options: {
  databaseUrl: string;
  apiUrl: string;
  users: SeededUsers;
  load: LoadSettings;
  environment: string;
}): Promise<{ report: string; failures: string[] }> {
  const { databaseUrl, apiUrl, users, load } = options;
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
    `median of ${load.rounds} alternating rounds; ${options.environment}`;
  const accountsReport = formatReport(
    floorResult,
    [realResult],
    `GET /api/v1/bank-accounts/ as a user owning ${ownerAccounts} accounts; ${environment}`,
  );
  process.stdout.write(accountsReport);

  const transactionRuns = await measureTransactionLists(
    databaseUrl,
    { apiUrl, bareUrl, token: ownerToken },
    ownerAccountIds,
    load,
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
  process.stdout.write(`\n${transactionsReport}`);

  const failed = [floorResult, realResult, ...transactionRuns.flatMap((r) => [r.floor, r.real])].filter(
    (m) => m.failures > 0,
  );
  return {
    report: `${accountsReport}\n${transactionsReport}`,
    failures: failed.map(
      (m) =>
        `${m.scenario}: ${m.failures} non-2xx/errors/timeouts; statuses ${JSON.stringify(m.statusCodes)}`,
    ),
  };
}

/** Rows in the big account and in the small one: latency must not grow with the account. */
const TRANSACTION_ACCOUNTS = [100_000, 10_000] as const;
const TRANSACTION_PAGE = 100;

interface TransactionRun {
  rows: number;
  floor: Measurement;
  real: Measurement;
}

/**
 * Seeds two of the owner's accounts (100,000 and 10,000 transactions) and measures the first page of
 * each through the real API and the bare floor, which must serve the same page.
 */
async function measureTransactionLists(
  databaseUrl: string,
  servers: { apiUrl: string; bareUrl: string; token: string },
  accountIds: string[],
  load: LoadSettings,
): Promise<TransactionRun[]> {
  const runs: TransactionRun[] = [];
  for (const [index, rows] of TRANSACTION_ACCOUNTS.entries()) {
    const accountId = accountIds[index];
    if (!accountId) throw new Error("not enough seeded accounts");
    const ms = await seedTransactions(databaseUrl, accountId, rows);
    console.error(
      `Seeded ${rows} transactions with allocations and snapshots in ${(ms / 1000).toFixed(1)} s`,
    );
  }
  for (const [index, rows] of TRANSACTION_ACCOUNTS.entries()) {
    const query = `?bank_account=${accountIds[index]}&page_size=${TRANSACTION_PAGE}`;
    const real = {
      url: `${servers.apiUrl}/api/v1/transactions/${query}`,
      headers: { authorization: `Bearer ${servers.token}` },
    };
    const floor = { url: `${servers.bareUrl}/transactions/${query}`, headers: {} };
    await expectSameTransactionPage(real, floor, rows);
    console.error(`Measuring the transactions list at ${rows} rows`);
    runs.push({ rows, ...(await measurePair(floor, real, load)) });
  }
  return runs;
}

/** The two targets, checked on this run's figures. */
function transactionTargets(runs: TransactionRun[]): string {
  const [big, small] = runs;
  if (!big || !small) return "";
  const lines = runs.map(({ rows, floor, real }) => {
    const ratio = real.requestsPerSecond / floor.requestsPerSecond;
    return `- ${rows.toLocaleString("en")} rows: real/bare throughput ${ratio.toFixed(2)} (target ≥ 0.50: ${ratio >= 0.5 ? "met" : "MISSED"})`;
  });
  const growth = big.real.p50Ms / small.real.p50Ms;
  const floorGrowth = big.floor.p50Ms / small.floor.p50Ms;
  lines.push(
    `- real p50 at ${big.rows.toLocaleString("en")} rows / at ${small.rows.toLocaleString("en")} rows: ` +
      `${big.real.p50Ms} / ${small.real.p50Ms} ms = ${growth.toFixed(2)} (target ≤ 1.50: ${growth <= 1.5 ? "met" : "MISSED"}); ` +
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
async function mailDir() {
  const directory = await mkdtemp(join(tmpdir(), "allot-bench-mail-"));
  defer(() => rm(directory, { recursive: true, force: true }));
  return directory;
}

function apiEnv(databaseUrl: string, mailDirectory: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
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
