import { authenticateAccessToken, authenticateApiKey } from "@allot/domain/auth/authenticate";
import type { Actor } from "@allot/domain/shared/actor";
import { Unauthenticated } from "@allot/domain/shared/errors";
import type { FastifyRequest } from "fastify";
import type { RefusedCredential } from "../http/authenticate-challenge";
import type { AppServices } from "../trpc/context";

// A Map, not an object: a scheme named `constructor` must find nothing.
const KNOWN_SCHEMES = new Map<string, RefusedCredential["scheme"]>([
  ["bearer", "Bearer"],
  ["api-key", "Api-Key"],
]);

/** The caller of a request from its Authorization header; null when there is none. */
export async function authenticateRequest(
  request: FastifyRequest,
  services: AppServices,
): Promise<Actor | null> {
  const header = request.headers.authorization;
  if (!header) return null;
  const [scheme, credential, ...rest] = header.trim().split(/\s+/);
  const known = KNOWN_SCHEMES.get(scheme?.toLowerCase() ?? "");
  if (!credential || rest.length) {
    if (known) request.refusedCredential = { scheme: known, error: "invalid_request" };
    throw new Unauthenticated(
      "Invalid Authorization header: expected '<scheme> <credential>'.",
      "authentication_failed",
    );
  }
  if (!known) {
    throw new Unauthenticated(
      `Unsupported authorization scheme '${scheme}': use Bearer or Api-Key.`,
      "authentication_failed",
    );
  }
  try {
    return known === "Bearer"
      ? await authenticateAccessToken(services.db, services.tokens, credential)
      : await authenticateApiKey(services.db, credential);
  } catch (error) {
    if (error instanceof Unauthenticated)
      request.refusedCredential = { scheme: known, error: "invalid_token" };
    throw error;
  }
}
