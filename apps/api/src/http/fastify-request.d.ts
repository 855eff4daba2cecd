import type { RouteSpec } from "@allot/contract/http/route";
import type { Actor } from "@allot/domain/shared/actor";

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
    };
  }
}
