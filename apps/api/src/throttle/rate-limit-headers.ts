import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ThrottleStore, ThrottleUsage } from "./throttle-store";
import { CountersThrottled } from "./throttle-store";

type Counter = ThrottleUsage["counters"][number] & { at: Date };

const UNIT_NAMES: Record<number, string> = { 1: "second", 60: "minute", 3600: "hour", 86400: "day" };

/**
 * The store, noting on the request every counter it read or wrote for it (refusals included),
 * so the answer can announce them (decision 0040). The latest count of a counter wins.
 */
export function reportingTo(request: FastifyRequest, store: ThrottleStore): ThrottleStore {
  const note = (usage: ThrottleUsage) => {
    request.rateLimits ??= new Map();
    for (const counter of usage.counters)
      request.rateLimits.set(counter.window.key, { ...counter, at: usage.at });
  };
  const reported =
    (method: (checks: Parameters<ThrottleStore["consume"]>[0], now?: Date) => Promise<ThrottleUsage>) =>
    async (checks: Parameters<ThrottleStore["consume"]>[0], now?: Date) => {
      try {
        const usage = await method(checks, now);
        note(usage);
        return usage;
      } catch (error) {
        if (error instanceof CountersThrottled) note(error.usage);
        throw error;
      }
    };
  return {
    consume: reported(store.consume),
    record: reported(store.record),
    refuseIfExhausted: reported(store.refuseIfExhausted),
  };
}

/**
 * `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers-10, structured-field
 * lists): one item per counter the request was counted against, named by what it counts and its
 * window (`"user-minute"`), never by the caller's id, address or email.
 */
function rateLimitHeaders(counters: Iterable<Counter>): { policy: string; state: string } {
  const policies: string[] = [];
  const states: string[] = [];
  const named = new Set<string>();
  for (const { window, hits, at } of counters) {
    const name = `${policyKind(window.key)}-${UNIT_NAMES[window.windowSeconds] ?? `${window.windowSeconds}s`}`;
    if (named.has(name)) continue;
    named.add(name);
    const remaining = Math.max(0, window.limit - hits);
    const reset = Math.max(1, Math.ceil(window.windowStart + window.windowSeconds - at.getTime() / 1000));
    policies.push(`"${name}";q=${window.limit};w=${window.windowSeconds}`);
    states.push(`"${name}";r=${remaining};t=${reset}`);
  }
  return { policy: policies.join(", "), state: states.join(", ") };
}

/** `user:42|60` → `user`: the counter's kind (its key's text before the first colon). */
function policyKind(counterKey: string): string {
  const kind = /^[a-z][a-z-]*/.exec(counterKey)?.[0];
  return kind ?? "limit";
}

/** Every answer of a request that was counted carries the headers, errors and 429s included. */
export function answerRateLimits(app: FastifyInstance) {
  // Synchronous, as answerAuthenticateChallenge's hook (see there).
  app.addHook("onSend", (request, reply, payload, done) => {
    if (request.rateLimits && request.rateLimits.size > 0) {
      const { policy, state } = rateLimitHeaders(request.rateLimits.values());
      reply.header("ratelimit-policy", policy).header("ratelimit", state);
    }
    done(null, payload);
  });
}
