import type { Measurement } from "./measure";

/** The markdown table of one run: each scenario's throughput relative to the floor's. */
export function formatReport(floor: Measurement, others: Measurement[], context: string): string {
  const row = (m: Measurement) => {
    const ratio = (m.requestsPerSecond / floor.requestsPerSecond).toFixed(2);
    // autocannon's latency histogram holds whole milliseconds.
    return `| ${m.scenario} | ${m.requestsPerSecond.toFixed(0)} | ${m.p50Ms} | ${m.p99Ms} | ${ratio} |`;
  };
  return [
    context,
    "",
    "| scenario | req/s | p50 (ms) | p99 (ms) | throughput / bare |",
    "|---|---:|---:|---:|---:|",
    ...[...others, floor].map(row),
    "",
  ].join("\n");
}
