import type { ThrottleCheck } from "@allot/domain/throttle/throttle-windows";
import type { FastifyReply, FastifyRequest } from "fastify";
import { type ThrottleStore, ThrottleStoreUnavailable } from "./throttle-store";

/** How long a client is asked to wait when the counters cannot be reached (as for a lost database). */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * Counts the request (a `Throttled` error becomes the 429). When the store is unreachable the
 * request is refused with 503 and Retry-After, the way the service answers while its database is
 * down: a request is never served uncounted, and never answered with a 500. Resolves to the reply
 * when it has answered, so the hook stops there.
 */
export async function enforceThrottle(
  store: ThrottleStore,
  checks: ThrottleCheck[],
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply | undefined> {
  try {
    await store.consume(checks);
    return undefined;
  } catch (error) {
    if (!(error instanceof ThrottleStoreUnavailable)) throw error;
    request.log.warn({ err: error }, "request refused: throttle store unavailable");
    return reply
      .code(503)
      .header("retry-after", String(UNAVAILABLE_RETRY_AFTER_SECONDS))
      .type("application/json")
      .send({ detail: "The service is unavailable; try again shortly.", code: "service_unavailable" });
  }
}
