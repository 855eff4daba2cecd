import type { ThrottleCheck } from "@allot/domain/throttle/throttle-windows";

/** Where the throttle counters live: the database by default, Redis when REDIS_URL is set. */
export interface ThrottleStore {
  /**
   * Counts one request against every check. Throws `Throttled` when a count is over its limit,
   * `ThrottleStoreUnavailable` when the counters cannot be reached (the request is then refused:
   * no request runs uncounted).
   */
  consume(checks: ThrottleCheck[], now?: Date): Promise<void>;
  /**
   * Counts one event against every check without refusing it (it has been answered already: a
   * failed login or authentication). `ThrottleStoreUnavailable` as for `consume`.
   */
  record(checks: ThrottleCheck[], now?: Date): Promise<void>;
  /**
   * Counts nothing; throws `Throttled` when a check has used up its limit in its current window
   * (the next `record` would be over it). `ThrottleStoreUnavailable` as for `consume`.
   */
  refuseIfExhausted(checks: ThrottleCheck[], now?: Date): Promise<void>;
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
