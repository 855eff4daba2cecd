import { randomBytes } from "node:crypto";
import { type RunningS3Server, startS3Server } from "@allot/attachments/testing/s3-server";
import { createDatabase, type DatabaseHandle } from "@allot/db/create-database";
import { afterAll, beforeAll } from "vitest";
import { type ApiProcess, type Defer, scratchDatabase, startApi } from "./processes";

export type ThrottleStoreKind = "database" | "redis";

/** Low limits the checks can reach; generous ones for every caller they do not test. */
export const LIMITS = { userPerHour: 5, loginPerEmailPerHour: 5 };

export interface ApiPair {
  a: ApiProcess;
  b: ApiProcess;
  /** The shared database, for seeding users and reading counters. */
  db: DatabaseHandle["db"];
  /** With the Redis store: the prefix of this pair's counters. */
  redisPrefix: string;
  /** With `s3`: the S3 store (s3rver) both keep receipts in. */
  s3: RunningS3Server | null;
}

export interface ApiPairOptions {
  /** Receipts in one S3 store both share (ATTACHMENT_STORAGE=s3), not in each one's DATA_DIR. */
  s3?: boolean;
  /** Variables over the pair's own (a suite that makes many requests as one user lifts its limit). */
  env?: Record<string, string>;
}

/**
 * Two API processes on one empty scratch PostgreSQL database (both migrate it at once at start),
 * with one JWT secret, the embedded scheduler off, and the throttle counters in `store`.
 */
export function useApiPair(store: ThrottleStoreKind, options: ApiPairOptions = {}): ApiPair {
  const undo: (() => Promise<unknown>)[] = [];
  const defer: Defer = (step) => undo.push(step);
  const pair = {} as ApiPair;

  beforeAll(async () => {
    const url = await scratchDatabase(defer);
    pair.s3 = options.s3 ? await startS3Server() : null;
    const s3 = pair.s3;
    if (s3) defer(() => s3.stop());
    pair.redisPrefix = `allot-test:${randomBytes(6).toString("hex")}:`;
    const env: Record<string, string> = {
      DATABASE_URL: url,
      JWT_SECRET: randomBytes(32).toString("hex"),
      SCHEDULER: "off",
      THROTTLE_RATE_USER: `${LIMITS.userPerHour}/hour`,
      THROTTLE_RATE_LOGIN_EMAIL: `${LIMITS.loginPerEmailPerHour}/hour`,
      // Every request of the test comes from 127.0.0.1: the per-IP limits are not under test.
      THROTTLE_RATE_ANON: "100000/minute",
      THROTTLE_RATE_LOGIN_IP: "100000/minute",
      THROTTLE_RATE_REFRESH_IP: "100000/minute",
      ...(store === "redis"
        ? { REDIS_URL: process.env.TEST_REDIS_URL as string, REDIS_KEY_PREFIX: pair.redisPrefix }
        : {}),
      ...pair.s3?.env,
      ...options.env,
    };
    [pair.a, pair.b] = await Promise.all([startApi(env, defer), startApi(env, defer)]);
    const database = await createDatabase({ url, maxConnections: 2 });
    defer(() => database.close());
    pair.db = database.db;
  }, 300_000);

  afterAll(async () => {
    for (const step of undo.splice(0).reverse()) await step();
  }, 120_000);

  return pair;
}
