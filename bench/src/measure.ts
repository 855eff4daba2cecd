import { setTimeout as sleep } from "node:timers/promises";
import autocannon from "autocannon";

// autocannon stops with requests in flight; the server gets this long to finish them before the
// next run (or its shutdown) starts.
const SETTLE_MS = 1_000;

export interface LoadSettings {
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
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
export async function measure(
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
