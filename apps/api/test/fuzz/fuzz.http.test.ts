import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../testing/test-app";
import { formatReport, runFuzz } from "./fuzz-runner";

/*
 * The fuzz suite, generated from the service's own OpenAPI document (see
 * docs/decisions/0018-fuzzing.md). In `pnpm test`: a fixed seed and a small number of requests per
 * operation. `pnpm fuzz` runs the same with FUZZ_RUNS requests per operation and a fresh seed
 * (FUZZ_SEED=random), printed so that a failure can be replayed with FUZZ_SEED=<seed>.
 */

const FIXED_SEED = 20_260_518;
const runs = Number(process.env.FUZZ_RUNS ?? 80);
const seed =
  process.env.FUZZ_SEED === "random"
    ? Math.floor(Math.random() * 2 ** 31)
    : Number(process.env.FUZZ_SEED ?? FIXED_SEED);
const only = process.env.FUZZ_ONLY || undefined;
// `pnpm fuzz` makes a slow answer a finding (a stored value must not make a later request slow);
// the slice in `pnpm test` only reports timings, since CI shares its two cores with other work.
const slowMs = process.env.FUZZ_SLOW_MS ? Number(process.env.FUZZ_SLOW_MS) : undefined;

describe.each(testEngines())("fuzz from the OpenAPI document (%s)", (engine) => {
  const t = useTestApp(engine);

  it(
    "answers every generated request with a documented status and body, never a 5xx, and keeps the ledger",
    async () => {
      const report = await runFuzz(t, { seed, runs, only, slowMs });
      const summary = formatReport(report, engine);
      console.log(summary);
      expect(report.findings.length + report.ledgerProblems.length, summary).toBe(0);
      expect(report.requests).toBeGreaterThan(0);
    },
    // Roughly 10 ms a request on this machine; generous, since others share it.
    Math.max(120_000, runs * 75 * 60),
  );
});
