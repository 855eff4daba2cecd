import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { availableParallelism, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { withAdminConnection } from "@allot/db/testing/test-databases";
import { createCleanups } from "./defer";
import { DEFAULT_DATABASE_URL, readBenchEnv } from "./env";
import { measure } from "./measure";
import { formatReport } from "./report";
import { createScratchDatabase } from "./scratch-database";
import { seedAccounts, seedUsers } from "./seed";
import { startServer } from "./servers";

/*
 * `pnpm bench`: authenticated GET /api/v1/bank-accounts/ through the real API process on
 * PostgreSQL, beside a bare fastify + postgres.js server running the same SQL, both loaded by
 * autocannon over loopback in the same run. Prints a markdown table and keeps it in results/latest.md.
 */

const RESULTS_FILE = fileURLToPath(new URL("../results/latest.md", import.meta.url));
const BARE_SERVER = fileURLToPath(new URL("./bare-server.ts", import.meta.url));
const API_DIR = dirname(fileURLToPath(import.meta.resolve("@allot/api/package.json")));

const { defer, runAll: cleanUp } = createCleanups();

async function main() {
  const { serverUrl, usedDefaultServerUrl, load } = readBenchEnv();
  if (usedDefaultServerUrl) console.error(`DATABASE_URL is not set; using ${DEFAULT_DATABASE_URL}`);
  // Other work on the machine slows both scenarios; the report says how busy it was.
  const loadAverage = loadavg()[0] ?? 0;

  const databaseUrl = await createScratchDatabase(serverUrl, defer);
  const users = await seedUsers(databaseUrl);
  const apiUrl = await startServer(
    { name: "api", entry: join(API_DIR, "src/main.ts"), cwd: API_DIR, env: apiEnv(databaseUrl) },
    defer,
  );
  const bareUrl = await startServer(
    {
      name: "bare",
      entry: BARE_SERVER,
      cwd: dirname(BARE_SERVER),
      env: { DATABASE_URL: databaseUrl, BENCH_USER_ID: String(users.owner.id) },
    },
    defer,
  );
  const { ownerToken, ownerAccounts } = await seedAccounts(apiUrl, users);

  const real = { url: `${apiUrl}/api/v1/bank-accounts/`, headers: { authorization: `Bearer ${ownerToken}` } };
  const floor = { url: `${bareUrl}/bank-accounts/`, headers: {} };
  await expectSamePage(real, floor, ownerAccounts);

  console.error(
    `Measuring each for ${load.warmupSeconds} s warm-up + ${load.durationSeconds} s, ${load.connections} connections`,
  );
  const floorResult = await measure("bare fastify + postgres.js, same SQL", floor.url, floor.headers, load);
  const realResult = await measure("real API (auth, throttle, tRPC, drizzle)", real.url, real.headers, load);

  const postgresVersion = await withAdminConnection(
    serverUrl,
    async (sql) => (await sql`show server_version`)[0]?.server_version,
  );
  const report = formatReport(
    floorResult,
    [realResult],
    `GET /api/v1/bank-accounts/ as a user owning ${ownerAccounts} accounts; ${load.connections} connections, ` +
      `${load.durationSeconds} s after ${load.warmupSeconds} s warm-up; PostgreSQL ${postgresVersion}, ` +
      `Node ${process.version}, ${availableParallelism()} CPUs (load average ${loadAverage.toFixed(1)} at start), ` +
      new Date().toISOString(),
  );
  process.stdout.write(report);

  const failed = [floorResult, realResult].filter((m) => m.failures > 0);
  for (const m of failed) {
    console.error(
      `FAILED: ${m.scenario}: ${m.failures} non-2xx/errors/timeouts; statuses ${JSON.stringify(m.statusCodes)}`,
    );
  }
  if (failed.length > 0) {
    console.error(`Not writing ${RESULTS_FILE}: the run had failures.`);
    process.exitCode = 1;
    return;
  }
  await mkdir(dirname(RESULTS_FILE), { recursive: true });
  await writeFile(RESULTS_FILE, report);
  console.error(`Wrote ${RESULTS_FILE}`);
}

function apiEnv(databaseUrl: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    JWT_SECRET: randomBytes(48).toString("base64url"),
    LOG_LEVEL: "warn",
    // The bench measures serving, not refusing: no throttle may answer 429. All five are set because
    // apps/api/src/env.ts's defaults reach the app unparsed (zod 4's `.default` skips the transform).
    THROTTLE_RATE_USER: "10000000/minute",
    THROTTLE_RATE_ANON: "10000/minute",
    THROTTLE_RATE_LOGIN_IP: "10000/minute",
    THROTTLE_RATE_LOGIN_EMAIL: "10000/minute",
    THROTTLE_RATE_REFRESH_IP: "10000/minute",
  };
}

interface Target {
  url: string;
  headers: Record<string, string>;
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
