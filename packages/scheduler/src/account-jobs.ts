import type { Database } from "@allot/db/create-database";
import { type FundingRunResult, runAccountFunding } from "@allot/domain/funding/run-funding";
import { internalContext } from "@allot/domain/shared/use-case-context";

/** A daily job per auto-funding account, due from a local hour of the first owner's clock. */
export interface AccountJob {
  name: string;
  /** Local hour (0–23) from which the account is due, once per local date. */
  hour: number;
  run(db: Database, accountId: string, asOf: string): Promise<FundingRunResult>;
}

// operations.md: fund events at 23:00 (after the day's spending), recurrences at 03:00.
export const accountJobs: AccountJob[] = [
  {
    name: "fund",
    hour: 23,
    run: (db, accountId, asOf) =>
      runAccountFunding(internalContext(db, "scheduler"), accountId, {
        asOf,
        kinds: ["fund"],
        actorId: null,
      }),
  },
  {
    name: "recur",
    hour: 3,
    run: (db, accountId, asOf) =>
      runAccountFunding(internalContext(db, "scheduler"), accountId, {
        asOf,
        kinds: ["recur"],
        actorId: null,
      }),
  },
];
