import { authenticateAccessToken, authenticateApiKey } from "@allot/domain/auth/authenticate";
import type { Actor } from "@allot/domain/shared/actor";
import { Unauthenticated } from "@allot/domain/shared/errors";
import type { FastifyRequest } from "fastify";
import type { Services } from "../trpc/context";

/** The caller of a request from its Authorization header; null when there is none. */
export async function authenticateRequest(
  request: FastifyRequest,
  services: Services,
): Promise<Actor | null> {
  const header = request.headers.authorization;
  if (!header) return null;
  const [scheme, credential, ...rest] = header.trim().split(/\s+/);
  if (!credential || rest.length) {
    throw new Unauthenticated(
      "Invalid Authorization header: expected '<scheme> <credential>'.",
      "authentication_failed",
    );
  }
  switch (scheme?.toLowerCase()) {
    case "bearer":
      return authenticateAccessToken(services.db, services.tokens, credential);
    case "api-key":
      return authenticateApiKey(services.db, credential);
    default:
      throw new Unauthenticated(
        `Unsupported authorization scheme '${scheme}': use Bearer or Api-Key.`,
        "authentication_failed",
      );
  }
}
