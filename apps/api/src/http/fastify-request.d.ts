import type { RouteSpec } from "@allot/contract/http/route";
import type { Actor } from "@allot/domain/shared/actor";

declare module "fastify" {
  interface FastifyRequest {
    /** Set for `/api/…` requests by the onRequest hook: the matched contract route and the caller. */
    allot?: {
      route: RouteSpec;
      actor: Actor | null /** As received, before trpc-to-openapi rewrites it. */;
      url: string;
    };
  }
}
