import { Throttled } from "@allot/domain/shared/errors";
import {
  retryAfterSeconds,
  type ThrottleCheck,
  type ThrottleWindow,
  throttleWindows,
} from "@allot/domain/throttle/throttle-windows";

/**
 * What the counters of one request hold after the store read or wrote them: the RateLimit
 * headers are computed from this, so announcing the limits costs no extra round trip.
 */
export interface ThrottleUsage {
  counters: { window: ThrottleWindow; hits: number }[];
  /** The time the store counted at (the windows' reset is measured from it). */
  at: Date;
}

/** A window and how many hits to add to (or that were read from) its counter. */
export interface WindowHits {
  window: ThrottleWindow;
  hits: number;
}

/**
 * Where the throttle counters live: the database by default, Redis when REDIS_URL is set. One
 * round trip each; a store that cannot be reached throws `ThrottleStoreUnavailable`.
 */
export interface ThrottleCounters {
  /** Adds each window's hits to its counter; the counts after. */
  add(increments: WindowHits[], now: Date): Promise<ThrottleUsage>;
  /** The current counts, counting nothing. */
  read(windows: ThrottleWindow[], now: Date): Promise<ThrottleUsage>;
}

/** How requests are counted and refused. */
export interface ThrottleStore {
  /**
   * Counts one request against every check. Throws `CountersThrottled` when a count is over its
   * limit, `ThrottleStoreUnavailable` when the counters cannot be reached (the request is then
   * refused: no request runs uncounted).
   */
  consume(checks: ThrottleCheck[], now?: Date): Promise<ThrottleUsage>;
  /**
   * Counts one event against every check without refusing it (it has been answered already: a
   * failed login or authentication). `ThrottleStoreUnavailable` as for `consume`.
   */
  record(checks: ThrottleCheck[], now?: Date): Promise<ThrottleUsage>;
  /**
   * Counts nothing; throws `CountersThrottled` when a check has used up its limit in its current
   * window (the next `record` would be over it). `ThrottleStoreUnavailable` as for `consume`.
   */
  refuseIfExhausted(checks: ThrottleCheck[], now?: Date): Promise<ThrottleUsage>;
}

/** A throttle store over counters, with the counters it counts in. */
export interface CountingThrottleStore extends ThrottleStore {
  counters: ThrottleCounters;
}

/** Every request counted in the store as it comes: one round trip each, exact across instances. */
export function exactThrottleStore(counters: ThrottleCounters): CountingThrottleStore {
  const adding = (checks: ThrottleCheck[], now: Date) =>
    counters.add(
      throttleWindows(checks, now).map((window) => ({ window, hits: 1 })),
      now,
    );
  return {
    counters,
    consume: async (checks, now = new Date()) => refuseOverLimit(await adding(checks, now)),
    record: (checks, now = new Date()) => adding(checks, now),
    // Exhausted: one more would be over the limit.
    refuseIfExhausted: async (checks, now = new Date()) =>
      refuseOverLimit(await counters.read(throttleWindows(checks, now), now), 1),
  };
}

/** A 429 from the counters, carrying what they held (for the RateLimit headers of the answer). */
export class CountersThrottled extends Throttled {
  constructor(
    retryAfter: number,
    readonly usage: ThrottleUsage,
  ) {
    super(retryAfter);
  }
}

/**
 * Throws `CountersThrottled` when a counter is over its limit once `pending` more hits are added
 * (1: refuse when the next hit would be over); returns the usage otherwise.
 */
export function refuseOverLimit(usage: ThrottleUsage, pending = 0): ThrottleUsage {
  const hits = new Map(usage.counters.map(({ window, hits }) => [window, hits + pending]));
  const retryAfter = retryAfterSeconds(
    usage.counters.map(({ window }) => window),
    (window) => hits.get(window) ?? 0,
    usage.at,
  );
  if (retryAfter > 0) throw new CountersThrottled(retryAfter, usage);
  return usage;
}

/** The counters could not be read or written; the API answers 503 with Retry-After. */
export class ThrottleStoreUnavailable extends Error {
  constructor(store: string, cause: unknown) {
    super(
      `The throttle store (${store}) is unavailable: ${cause instanceof Error ? cause.message : String(cause)}`,
      {
        cause,
      },
    );
  }
}
