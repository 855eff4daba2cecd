import type { Actor } from "@allot/domain/shared/actor";
import { Unauthenticated } from "@allot/domain/shared/errors";
import type { FastifyRequest } from "fastify";
import { authenticateRequest } from "../auth/authenticate-request";
import type { AppServices } from "../trpc/context";
import { anonymousCheck } from "./throttle-checks";
import type { ThrottleStore } from "./throttle-store";

// Networks that failed to authenticate on this instance lately, and until when they are watched:
// only their requests pay the counter read before the lookup, so a client that never fails costs
// nothing more than before. A day covers the longest throttle window; the bound keeps memory small
// (cleared when full: a network then gets one more lookup before its check applies again).
const WATCH_MS = 86_400_000;
const WATCHED_LIMIT = 10_000;
const watched = new Map<string, number>();

/**
 * `authenticateRequest` with its failures counted (decision 0025): a bad, unknown, revoked or
 * expired credential counts against the client network's anonymous bucket, and once that bucket
 * is used up a request carrying a credential from a network seen failing is refused (429) before
 * any lookup, so guessing keys costs the attacker their anonymous allowance and the database
 * nothing more. Valid credentials are counted per user, as before (the preHandler).
 */
export async function authenticateCountingFailures(
  request: FastifyRequest,
  services: AppServices,
  throttleStore: ThrottleStore,
): Promise<Actor | null> {
  if (!request.headers.authorization) return null;
  // The caller's network is worked out only when some network has failed here lately.
  if (watched.size > 0) {
    const check = anonymousCheck(request, services.config);
    const watchedUntil = watched.get(check.key);
    if (watchedUntil !== undefined) {
      if (watchedUntil > Date.now()) await throttleStore.refuseIfExhausted([check]);
      else watched.delete(check.key);
    }
  }
  try {
    return await authenticateRequest(request, services);
  } catch (error) {
    if (error instanceof Unauthenticated) {
      const check = anonymousCheck(request, services.config);
      if (watched.size >= WATCHED_LIMIT) watched.clear();
      watched.set(check.key, Date.now() + WATCH_MS);
      await throttleStore.record([check]);
    }
    throw error;
  }
}
