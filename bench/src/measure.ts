import { setTimeout as sleep } from "node:timers/promises";
import autocannon from "autocannon";

// autocannon stops with requests in flight; the server gets this long to finish them before the
// next run (or its shutdown) starts.
const SETTLE_MS = 1_000;

export interface LoadSettings {
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  /** Floor and real are measured this many times, alternating; the report gives the medians. */
  rounds: number;
}

export interface Measurement {
  scenario: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Responses outside 2xx, connection errors and timeouts, warm-up included. */
  failures: number;
  statusCodes: Record<string, number>;
}

/** Loads one URL from autocannon on loopback: a short warm-up (discarded), then the measured run. */
async function measure(
  scenario: string,
  url: string,
  headers: Record<string, string>,
  load: LoadSettings,
): Promise<Measurement> {
  const run = async (duration: number) => {
    const result = await autocannon({ url, headers, connections: load.connections, duration });
    await sleep(SETTLE_MS);
    return result;
  };
  const warmup = load.warmupSeconds > 0 ? await run(load.warmupSeconds) : null;
  const result = await run(load.durationSeconds);
  const statusCodes: Record<string, number> = {};
  for (const r of [warmup, result]) {
    for (const [code, { count }] of Object.entries(r?.statusCodeStats ?? {})) {
      statusCodes[code] = (statusCodes[code] ?? 0) + Number(count);
    }
  }
  return {
    scenario,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    failures: [warmup, result].reduce((sum, r) => sum + (r ? r.non2xx + r.errors + r.timeouts : 0), 0),
    statusCodes,
  };
}

const FLOOR_SCENARIO = "bare fastify + postgres.js, same SQL";
const REAL_SCENARIO = "real API (auth, throttle, tRPC, drizzle)";

export interface Target {
  url: string;
  headers: Record<string, string>;
}

/**
 * The floor and the real API, measured in alternating rounds so that a busy spell of the machine
 * (two cores shared by autocannon, both servers and PostgreSQL) weighs on both alike; each figure
 * is the median of its rounds.
 */
export async function measurePair(floor: Target, real: Target, load: LoadSettings) {
  const floorRounds: Measurement[] = [];
  const realRounds: Measurement[] = [];
  for (let round = 0; round < load.rounds; round++) {
    floorRounds.push(await measure(FLOOR_SCENARIO, floor.url, floor.headers, load));
    realRounds.push(await measure(REAL_SCENARIO, real.url, real.headers, load));
  }
  return { floor: medianOf(floorRounds), real: medianOf(realRounds) };
}

function medianOf(rounds: Measurement[]): Measurement {
  const median = (pick: (m: Measurement) => number) => {
    const sorted = rounds.map(pick).sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? 0;
  };
  const statusCodes: Record<string, number> = {};
  for (const m of rounds) {
    for (const [code, count] of Object.entries(m.statusCodes))
      statusCodes[code] = (statusCodes[code] ?? 0) + count;
  }
  return {
    scenario: rounds[0]?.scenario ?? "",
    requestsPerSecond: median((m) => m.requestsPerSecond),
    p50Ms: median((m) => m.p50Ms),
    p99Ms: median((m) => m.p99Ms),
    failures: rounds.reduce((sum, m) => sum + m.failures, 0),
    statusCodes,
  };
}
