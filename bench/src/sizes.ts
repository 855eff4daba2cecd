import type { LoadSettings } from "./measure";

/**
 * How big each scenario is: the issues' sizes for `pnpm bench`, tiny ones for the smoke slice
 * (`--smoke`), which only proves that every scenario still runs and gives sane answers.
 */
export interface BenchSizes {
  smoke: boolean;
  /** autocannon's settings for the lists. */
  load: LoadSettings;
  /** Transactions in the lists' big account and in its small one (at least a page, 100, each). */
  transactionAccounts: readonly [number, number];
  funding: { budgets: number; rounds: number };
  sync: { stored: number; scraped: number; pending: number; rounds: number };
  csvRows: number;
}

export function benchSizes(load: LoadSettings, smoke: boolean): BenchSizes {
  if (smoke)
    return {
      smoke,
      load: { durationSeconds: 1, connections: 2, warmupSeconds: 0, rounds: 1 },
      transactionAccounts: [300, 150],
      funding: { budgets: 20, rounds: 1 },
      sync: { stored: 200, scraped: 200, pending: 5, rounds: 1 },
      csvRows: 200,
    };
  return {
    smoke,
    load,
    transactionAccounts: [100_000, 10_000],
    funding: { budgets: 1_000, rounds: load.rounds },
    sync: { stored: 100_000, scraped: 5_000, pending: 20, rounds: load.rounds },
    csvRows: 50_000,
  };
}
