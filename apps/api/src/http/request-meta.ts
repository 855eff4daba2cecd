import type { RequestMeta } from "@allot/domain/shared/use-case-context";
import type { FastifyRequest } from "fastify";

/** The request a use case serves, as procedures and the plain download routes alike pass it on. */
export const requestMetaOf = (request: FastifyRequest): RequestMeta => ({
  id: request.id,
  ip: request.ip,
  userAgent: request.headers["user-agent"] ?? null,
  source: "api",
});
