import type { RouteSpec } from "@allot/contract/http/route";
import type { Actor } from "@allot/domain/shared/actor";
import type { ThrottleStore, ThrottleUsage } from "../throttle/throttle-store";
import type { RefusedCredential } from "./authenticate-challenge";

declare module "fastify" {
  interface FastifyContextConfig {
    /** A contract route served outside tRPC (a download): the `/api` hooks treat it as one of theirs. */
    contractRoute?: boolean;
  }
  interface FastifyRequest {
    /** Set for `/api/…` requests by the onRequest hook: the matched contract route and the caller. */
    allot?: {
      route: RouteSpec;
      actor: Actor | null /** As received, before trpc-to-openapi rewrites it. */;
      url: string;
      /** The throttle store, noting on this request what it counts (rate-limit-headers.ts). */
      counters: ThrottleStore;
    };
    /** The throttle counters this request was counted against, by counter key (rate-limit-headers.ts). */
    rateLimits?: Map<string, ThrottleUsage["counters"][number] & { at: Date }>;
    /** The Authorization credential the API refused, for the 401's WWW-Authenticate. */
    refusedCredential?: RefusedCredential;
  }
}
