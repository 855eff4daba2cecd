import { type ThrottleWindow, throttleWindows } from "@allot/domain/throttle/throttle-windows";
import {
  refuseOverLimit,
  type ThrottleCounters,
  type ThrottleStore,
  type ThrottleUsage,
  type WindowHits,
} from "./throttle-store";

/*
 * Counting every request in the shared store costs each request a round trip and a write on its
 * caller's hot counter row. Far from a limit that exactness buys nothing, so (decision 0044) an
 * instance admits a request without a round trip when, for every counter it is counted against:
 *   - the counter's limit is at least LOCAL_SHARE_DIVISOR (smaller limits — logins, password
 *     changes, invitations, reset emails — are always counted in the store, exactly);
 *   - this instance read the counter's shared count at most FRESH_MS ago;
 *   - that count plus the hits admitted here since stays below half the limit;
 *   - fewer than limit / LOCAL_SHARE_DIVISOR hits are waiting to be written.
 * The waiting hits are written every SYNC_MS (the write reads the shared count back), and at once
 * when a request cannot be admitted locally. Past half its limit a counter is counted in the store
 * on every request, so one instance never admits beyond a limit; with several, the most a window
 * can admit is the limit plus limit / LOCAL_SHARE_DIVISOR per other instance (their hits not yet
 * written, at most SYNC_MS old). A crash loses at most those waiting hits.
 */
export const SYNC_MS = 100;
/*
 * Each sync re-reads the counts, SYNC_MS after the last plus however long its write takes. Were
 * the reading good for exactly SYNC_MS, every sync whose write is slower than the one before would
 * open a gap in which every request of a busy caller makes its own write on the caller's one hot
 * row (about 1 request in 75 at 1,700 a second). The local allowance, not the reading's
 * age, is what bounds the overshoot, so the reading may serve until the next sync has had time.
 */
const FRESH_MS = 2 * SYNC_MS;
const LOCAL_SHARE_DIVISOR = 16;
/** Counters kept here at most (callers × windows); past it, new callers are counted in the store. */
const MAX_LOCAL_COUNTERS = 10_000;

interface LocalCounter {
  window: ThrottleWindow;
  /** The shared count as read back by this instance's latest-sent write (`sharedSeq`). */
  shared: number;
  sharedSeq: number;
  /** When `shared` was read; never, for a counter whose first write is still out. */
  sharedAt: number;
  /** Admitted here, not yet written. */
  waiting: number;
  /** Writes out (by the order they were sent), and the hits each carries, this request's own included. */
  writing: Map<number, number>;
}

export interface BufferedThrottleStore extends ThrottleStore {
  /** Writes the waiting hits and stops the timer (the server is closing). */
  close(): Promise<void>;
}

const counterId = (window: ThrottleWindow) => `${window.key}|${window.windowStart}`;

/**
 * This instance's view of a counter: the latest shared count read back, plus its own hits the
 * store had not seen when that count was read — those of writes sent after it, and those waiting.
 * The store applies one instance's writes in the order they are sent (one Redis connection; row
 * locks taken in turn), so a count read back by a write holds the hits of every earlier one. What
 * a request admitted here announces is this view, its own hit included: one more than the request
 * before it (issue 31), whether the hits in between were written yet or not.
 */
function localCount(counter: LocalCounter): number {
  let count = counter.shared + counter.waiting;
  for (const [seq, hits] of counter.writing) if (seq > counter.sharedSeq) count += hits;
  return count;
}

/** How many hits of a window may wait here; 0: every hit is counted in the store. */
const localAllowance = (window: ThrottleWindow) => Math.floor(window.limit / LOCAL_SHARE_DIVISOR);

function admitsLocally(counter: LocalCounter | undefined, nowMs: number): counter is LocalCounter {
  if (!counter) return false;
  const { limit } = counter.window;
  const allowance = localAllowance(counter.window);
  return (
    nowMs - counter.sharedAt <= FRESH_MS &&
    counter.waiting + 1 <= allowance &&
    (localCount(counter) + 1) * 2 <= limit
  );
}

/** Requests counted in memory far from their limits, and in `counters` near them (see above). */
export function bufferedThrottleStore(counters: ThrottleCounters): BufferedThrottleStore {
  const local = new Map<string, LocalCounter>();

  let sent = 0;

  /**
   * Writes the waiting hits of these windows plus `extra` each, in one round trip, and notes the
   * shared counts it reads back. On failure the hits wait for the next write. The counter is kept
   * from the moment its first write is sent, so a second write sent meanwhile adds to the same one.
   */
  async function writeThrough(windows: ThrottleWindow[], extra: number, now: Date): Promise<ThrottleUsage> {
    sent += 1;
    const seq = sent;
    const taken = windows.map((window) => {
      const counter = local.get(counterId(window)) ?? keptCounter(window);
      const waiting = counter?.waiting ?? 0;
      if (counter) {
        counter.waiting = 0;
        counter.writing.set(seq, waiting + extra);
      }
      return { counter, waiting };
    });
    let usage: ThrottleUsage;
    try {
      usage = await counters.add(
        windows.map((window, i) => ({ window, hits: (taken[i]?.waiting ?? 0) + extra })),
        now,
      );
    } catch (error) {
      for (const { counter, waiting } of taken) {
        if (!counter) continue;
        counter.writing.delete(seq);
        counter.waiting += waiting;
      }
      throw error;
    }
    for (const [i, { counter }] of taken.entries()) {
      if (!counter) continue;
      counter.writing.delete(seq);
      // A write sent earlier may answer later: its count is older, and already in the one kept.
      if (seq > counter.sharedSeq) {
        counter.shared = usage.counters[i]?.hits ?? 0;
        counter.sharedSeq = seq;
        counter.sharedAt = Date.now();
      }
    }
    return usage;
  }

  /** A new counter kept here for this window, or undefined when it is always counted in the store. */
  function keptCounter(window: ThrottleWindow): LocalCounter | undefined {
    if (localAllowance(window) === 0 || local.size >= MAX_LOCAL_COUNTERS) return undefined;
    const counter: LocalCounter = {
      window,
      shared: 0,
      sharedSeq: 0,
      sharedAt: Number.NEGATIVE_INFINITY,
      waiting: 0,
      writing: new Map(),
    };
    local.set(counterId(window), counter);
    return counter;
  }

  /** Writes every waiting hit; forgets counters whose window has closed. */
  async function sync() {
    const nowMs = Date.now();
    const waiting: ThrottleWindow[] = [];
    for (const [id, counter] of local) {
      if (counter.waiting > 0) waiting.push(counter.window);
      else if (
        counter.writing.size === 0 &&
        (counter.window.windowStart + counter.window.windowSeconds) * 1000 < nowMs
      )
        local.delete(id);
    }
    // Sorted by key, as every write of the store is (no deadlock between instances).
    waiting.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.windowStart - b.windowStart));
    if (waiting.length > 0) await writeThrough(waiting, 0, new Date(nowMs));
  }

  let syncing: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    // A failed write keeps its hits waiting; the next tick (or a request's own write) retries.
    syncing = syncing.then(sync).catch(() => undefined);
  }, SYNC_MS);
  timer.unref();

  return {
    async consume(checks, now = new Date()) {
      const windows = throttleWindows(checks, now);
      const nowMs = now.getTime();
      const found = windows.map((window) => local.get(counterId(window)));
      if (found.every((counter) => admitsLocally(counter, nowMs))) {
        const admitted = found as LocalCounter[];
        for (const counter of admitted) counter.waiting += 1;
        return {
          counters: admitted.map(
            (counter): WindowHits => ({ window: counter.window, hits: localCount(counter) }),
          ),
          at: now,
        };
      }
      return refuseOverLimit(await writeThrough(windows, 1, now));
    },
    record: (checks, now = new Date()) => writeThrough(throttleWindows(checks, now), 1, now),
    async refuseIfExhausted(checks, now = new Date()) {
      const windows = throttleWindows(checks, now);
      // Hits waiting here are written first (nothing added), so the count includes them.
      const waiting = windows.some((window) => (local.get(counterId(window))?.waiting ?? 0) > 0);
      const usage = waiting ? await writeThrough(windows, 0, now) : await counters.read(windows, now);
      // Exhausted: one more would be over the limit.
      return refuseOverLimit(usage, 1);
    },
    async close() {
      clearInterval(timer);
      await syncing;
      await sync().catch(() => undefined);
    },
  };
}
