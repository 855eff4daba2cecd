import { MAX_PAGE_SIZE } from "@allot/contract/http/fields";
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
  /** The accounts list's p99 is also measured at this many connections (floor and real alternating). */
  listsP99Connections: number;
  funding: { budgets: number; rounds: number };
  sync: { stored: number; scraped: number; pending: number; rounds: number };
  csvRows: number;
  webhooks: WebhookSizes;
  /**
   * The change feed: a full sync of an account of `stored` transactions, then the delta after a
   * sync-scrape of `scraped` posted rows and `pending` pending ones, `pageSize` changes a page.
   */
  changes: { stored: number; scraped: number; pending: number; pageSize: number; rounds: number };
  /** Spawns of each `allot` command whose start-up is timed. */
  cliSpawns: number;
  receipts: ReceiptSizes;
}

/**
 * A receipt of `fileBytes` uploaded `rounds` times one at a time and downloaded as often on each
 * store, then `waves` of `concurrent` uploads at once while the API's memory is read.
 */
export interface ReceiptSizes {
  fileBytes: number;
  rounds: number;
  concurrent: number;
  waves: number;
}

export interface WebhookSizes {
  /**
   * Queued outboxes of webhooks × changes deliveries, each drained by a fresh API process: one
   * webhook (every success of its deliveries writes its one row) beside several sharing the load.
   */
  throughput: readonly { engine: "postgres" | "pglite"; webhooks: number; changes: number }[];
  /** Changes made through the API at a steady pace, each timed from its answer to its arrival. */
  latency: { changes: number; perSecond: number };
}

export function benchSizes(load: LoadSettings, smoke: boolean): BenchSizes {
  if (smoke)
    return {
      smoke,
      load: { durationSeconds: 1, connections: 2, warmupSeconds: 0, rounds: 1 },
      transactionAccounts: [300, 150],
      listsP99Connections: 4,
      funding: { budgets: 20, rounds: 1 },
      sync: { stored: 200, scraped: 200, pending: 5, rounds: 1 },
      csvRows: 200,
      webhooks: {
        throughput: [
          { engine: "postgres", webhooks: 1, changes: 20 },
          { engine: "postgres", webhooks: 2, changes: 10 },
          { engine: "pglite", webhooks: 2, changes: 10 },
        ],
        latency: { changes: 5, perSecond: 20 },
      },
      // Pages smaller than the feed, so the cursor is followed.
      changes: { stored: 200, scraped: 200, pending: 5, pageSize: 50, rounds: 1 },
      cliSpawns: 1,
      receipts: { fileBytes: 64_000, rounds: 3, concurrent: 3, waves: 2 },
    };
  return {
    smoke,
    load,
    // 1,000,000 against 10,000: the page must not grow with the account (issue 21). A 100,000 case
    // would add its seeding and a measured pair to the run and answer no target.
    transactionAccounts: [1_000_000, 10_000],
    listsP99Connections: 32,
    funding: { budgets: 1_000, rounds: load.rounds },
    sync: { stored: 100_000, scraped: 5_000, pending: 20, rounds: load.rounds },
    csvRows: 50_000,
    webhooks: {
      throughput: [
        { engine: "postgres", webhooks: 1, changes: 2_000 },
        { engine: "postgres", webhooks: 4, changes: 500 },
        { engine: "pglite", webhooks: 4, changes: 500 },
      ],
      latency: { changes: 200, perSecond: 10 },
    },
    changes: { stored: 100_000, scraped: 5_000, pending: 20, pageSize: MAX_PAGE_SIZE, rounds: load.rounds },
    cliSpawns: 15,
    receipts: { fileBytes: 5_000_000, rounds: 20, concurrent: 10, waves: 5 },
  };
}
