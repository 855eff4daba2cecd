import type { FastifyInstance } from "fastify";

const REALM = 'realm="allot"';
const SCHEMES = ["Bearer", "Api-Key"] as const;

/** The scheme of a credential the API refused, and why (RFC 6750 §3.1 error codes). */
export interface RefusedCredential {
  scheme: (typeof SCHEMES)[number];
  error: "invalid_token" | "invalid_request";
}

const DESCRIPTIONS: Record<RefusedCredential["error"], string> = {
  invalid_token: "The credential is unknown, revoked or expired.",
  invalid_request: "The Authorization header is malformed.",
};

/**
 * `WWW-Authenticate` for a 401 (RFC 9110 §11.6.1): a challenge for each scheme the API accepts,
 * and the error on the scheme whose credential was refused (never the credential itself).
 */
function authenticateChallenge(refused: RefusedCredential | undefined): string {
  return SCHEMES.map((scheme) =>
    refused?.scheme === scheme
      ? `${scheme} ${REALM}, error="${refused.error}", error_description="${DESCRIPTIONS[refused.error]}"`
      : `${scheme} ${REALM}`,
  ).join(", ");
}

/** Every 401 of the service names the schemes, whichever layer refused the request. */
export function answerAuthenticateChallenge(app: FastifyInstance) {
  // Synchronous (done-style): as async hooks, this one and answerRateLimits' made fastify log
  // "Reply was already sent" on trpc-to-openapi's answers (request-id.http.test.ts caught it).
  app.addHook("onSend", (request, reply, payload, done) => {
    if (reply.statusCode === 401)
      reply.header("www-authenticate", authenticateChallenge(request.refusedCredential));
    done(null, payload);
  });
}
