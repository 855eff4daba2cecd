import type { Actor } from "@allot/domain/shared/actor";
import { Unauthenticated } from "@allot/domain/shared/errors";
import type { FastifyRequest } from "fastify";
import { authenticateRequest } from "../auth/authenticate-request";
import type { Services } from "../trpc/context";
import { anonymousCheck } from "./throttle-checks";
import type { ThrottleStore } from "./throttle-store";

/**
 * `authenticateRequest` with its failures counted (decision 0025): a bad, unknown, revoked or
 * expired credential counts against the client network's anonymous bucket, and once that bucket
 * is used up a request carrying a credential is refused (429) before any lookup, so guessing keys
 * costs the attacker their anonymous allowance and the database nothing more. Valid credentials
 * are counted per user, as before (the preHandler).
 */
export async function authenticateCountingFailures(
  request: FastifyRequest,
  services: Services,
  throttleStore: ThrottleStore,
): Promise<Actor | null> {
  if (!request.headers.authorization) return null;
  const checks = [anonymousCheck(request, services.config)];
  await throttleStore.refuseIfExhausted(checks);
  try {
    return await authenticateRequest(request, services);
  } catch (error) {
    if (error instanceof Unauthenticated) await throttleStore.record(checks);
    throw error;
  }
}
