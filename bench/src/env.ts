import { z } from "zod";
import type { LoadSettings } from "./measure";

// The only place process.env is read in the bench (the runner and the bare server child).

export const DEFAULT_DATABASE_URL = "postgres://root@127.0.0.1:5432/test";

const positiveInteger = z.coerce.number().int().min(1);

const BenchEnvSchema = z.object({
  DATABASE_URL: z.url().optional(),
  BENCH_DURATION: positiveInteger.default(10),
  BENCH_CONNECTIONS: positiveInteger.default(10),
  BENCH_WARMUP: z.coerce.number().int().min(0).default(2),
  BENCH_ROUNDS: positiveInteger.default(3),
  // A folder: the run's API process writes a V8 CPU profile there as it stops (--cpu-prof).
  BENCH_CPU_PROFILE_DIR: z.string().min(1).optional(),
});

export interface BenchEnv {
  /** A PostgreSQL server URL; the bench makes (and drops) its own database on that server. */
  serverUrl: string;
  usedDefaultServerUrl: boolean;
  load: LoadSettings;
  /** Where the API process writes its CPU profile, if anywhere. */
  cpuProfileDir: string | undefined;
}

export function readBenchEnv(env: NodeJS.ProcessEnv = process.env): BenchEnv {
  const e = parse(BenchEnvSchema, env);
  return {
    serverUrl: e.DATABASE_URL ?? DEFAULT_DATABASE_URL,
    usedDefaultServerUrl: !e.DATABASE_URL,
    load: {
      durationSeconds: e.BENCH_DURATION,
      connections: e.BENCH_CONNECTIONS,
      warmupSeconds: e.BENCH_WARMUP,
      rounds: e.BENCH_ROUNDS,
    },
    cpuProfileDir: e.BENCH_CPU_PROFILE_DIR,
  };
}

/**
 * `pnpm bench [group…] [--smoke]`: `lists` (GET bank accounts and transactions under load, against
 * the bare floor), `funding` (a year of the funding engine's catch-up, and the forecast of a year ahead), `import` (sync-scrape at
 * scale, the CLI's CSV import), `webhooks` (delivery throughput, commit-to-arrival delay),
 * `changes` (the change feed: a full sync, the delta after a sync-scrape), `receipts` (5 MB uploads
 * and downloads on local disk and S3, the API's memory under concurrent uploads) and `cli` (`allot`
 * start-up); no group runs them all. `--smoke` runs them at a tiny size, checks only that each works, and writes no
 * results file.
 */
export const SCENARIO_GROUPS = [
  "lists",
  "funding",
  "import",
  "webhooks",
  "changes",
  "receipts",
  "cli",
] as const;
export type ScenarioGroup = (typeof SCENARIO_GROUPS)[number];

const SMOKE = "--smoke";

export function readBenchArgs(args: string[]): { groups: Set<ScenarioGroup>; smoke: boolean } {
  const wanted = args.filter((arg) => arg !== "--" && arg !== SMOKE);
  const unknown = wanted.filter((arg) => !(SCENARIO_GROUPS as readonly string[]).includes(arg));
  if (unknown.length > 0)
    throw new Error(
      `Unknown scenario ${unknown.join(", ")}: usage: pnpm bench [${SCENARIO_GROUPS.join("|")}]… [${SMOKE}]`,
    );
  return {
    groups: new Set(wanted.length > 0 ? (wanted as ScenarioGroup[]) : SCENARIO_GROUPS),
    smoke: args.includes(SMOKE),
  };
}

/** What the runner hands the bare server child (see bare-server.ts). */
const BareServerEnvSchema = z.object({
  DATABASE_URL: z.url(),
  PORT: z.coerce.number().int().min(1).max(65535),
  BENCH_USER_ID: positiveInteger,
});

export function readBareServerEnv(env: NodeJS.ProcessEnv = process.env) {
  const e = parse(BareServerEnvSchema, env);
  return { databaseUrl: e.DATABASE_URL, port: e.PORT, userId: e.BENCH_USER_ID };
}

function parse<T extends z.ZodType>(schema: T, env: NodeJS.ProcessEnv): z.output<T> {
  // An empty variable counts as unset, as in a shell.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const parsed = schema.safeParse(present);
  if (!parsed.success) throw new Error(`Invalid environment:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/**
 * A server child's environment: ours (PG* variables, PATH…) with the bench's settings on top, so
 * the servers reach PostgreSQL the way the runner does. A setting of `undefined` leaves ours out
 * (spawn skips it): an API on the embedded database must not see our DATABASE_URL.
 */
export function childEnv(settings: Record<string, string | undefined>): NodeJS.ProcessEnv {
  return { ...process.env, ...settings };
}

/**
 * A child's environment with nothing of ours but PATH and HOME (each setting over them): a command
 * timed as a user's shell starts it, none of the runner's ALLOT_* or PG* variables.
 */
export function bareChildEnv(settings: Record<string, string | undefined>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, ...settings };
}
