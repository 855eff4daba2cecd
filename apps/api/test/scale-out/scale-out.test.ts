import { describeOnPostgres } from "@allot/db/testing/server-suites";
import { describe } from "vitest";
import { type ThrottleStoreKind, useApiPair } from "./api-pair";
import { fundingRunsOnce } from "./funding-runs-once";
import { receiptsAcrossInstances } from "./receipts-across-instances";
import { redisRequiredAtStart } from "./redis-required-at-start";
import { sessionsEndEverywhere } from "./sessions-across-instances";
import { throttlesHoldAcrossInstances } from "./throttles-across-instances";

// Several API and cron processes need a database server they all share: these run when
// DATABASE_URL is set (CI), each throttle store that is configured (Redis with TEST_REDIS_URL).
const stores = (): ThrottleStoreKind[] => (process.env.TEST_REDIS_URL ? ["database", "redis"] : ["database"]);

describe("one API process, Redis for its throttles", redisRequiredAtStart);

describeOnPostgres("two API processes on one PostgreSQL", () => {
  describe.each(stores())("throttle counters in %s", (store) => {
    const pair = useApiPair(store);
    throttlesHoldAcrossInstances(pair, store);
  });
});

describeOnPostgres("two API processes on one PostgreSQL and one S3 store", () => {
  // A file's life, or polling until a credential is refused, takes more requests of one user than
  // the throttle suite's limit.
  const pair = useApiPair("database", { s3: true, env: { THROTTLE_RATE_USER: "100000/minute" } });
  receiptsAcrossInstances(pair);
  sessionsEndEverywhere(pair);
});

describeOnPostgres("two cron processes on one PostgreSQL", () => {
  fundingRunsOnce();
});
