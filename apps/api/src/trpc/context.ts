import type { RouteSpec } from "@allot/contract/http/route";
import type { Database } from "@allot/db/create-database";
import type { AccessTokens } from "@allot/domain/auth/access-tokens";
import type { Actor } from "@allot/domain/shared/actor";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { ApiConfig } from "../config";
import type { ThrottleStore } from "../throttle/throttle-store";

/** What every procedure sees: the services, and the request as the HTTP layer prepared it. */
export interface Services {
  db: Database;
  tokens: AccessTokens;
  config: ApiConfig;
}

export interface Context extends Services {
  request: FastifyRequest;
  reply: FastifyReply;
  /** The authenticated caller; null for an anonymous request (only public routes accept it). */
  actor: Actor | null;
  route: RouteSpec;
  /** The throttle counters, for limits counted by outcome (failed logins). */
  throttleStore: ThrottleStore;
}
