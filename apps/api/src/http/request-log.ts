import { allRoutes } from "@allot/contract/routes";
import { maskLinkTokens } from "@allot/domain/email/link-tokens";
import type { FastifyError, FastifyRequest, FastifyServerOptions } from "fastify";

const SEGMENT = "[^/\\s?#\"'<>]+";

/**
 * The API paths that carry a token (`{token}` in the contract: password-reset confirm, email-change
 * confirm and revoke, invitations), as patterns of everything up to the token: derived from the
 * route table, so a new token route is masked without anyone remembering to.
 */
const API_TOKEN_PATHS = [
  ...new Set(
    allRoutes
      .filter((route) => route.path.includes("{token}"))
      .map((route) => route.path.slice(0, route.path.indexOf("{token}"))),
  ),
].map(
  (prefix) =>
    new RegExp(
      `(/api${prefix
        .split(/\{\w+\}/)
        .map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
        .join(SEGMENT)})${SEGMENT}`,
      "g",
    ),
);

/** A text (a URL, an error message) with the token of every token path in it masked. */
export const maskTokenPaths = (text: string): string =>
  API_TOKEN_PATHS.reduce((masked, pattern) => masked.replace(pattern, "$1[masked]"), maskLinkTokens(text));

/**
 * The server's logger (main.ts): request lines hold the method, the URL with its tokens masked,
 * the client address (`request.ip`, so TRUST_PROXY applies) and the status, never a header or a
 * body; `redact` also censors headers, cookies and bodies should any other line carry them.
 */
export function requestLogOptions(level: string): FastifyServerOptions["logger"] {
  return {
    level,
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: maskTokenPaths(request.url),
        remoteAddress: request.ip,
      }),
      res: (reply: { statusCode: number }) => ({ statusCode: reply.statusCode }),
      err: (error: FastifyError) => ({
        type: error.name,
        message: maskTokenPaths(String(error.message)),
        stack: maskTokenPaths(error.stack ?? ""),
        code: error.code,
        statusCode: error.statusCode,
      }),
    },
    redact: {
      paths: [
        "headers.authorization",
        "headers.cookie",
        'headers["set-cookie"]',
        "*.headers.authorization",
        "*.headers.cookie",
        '*.headers["set-cookie"]',
        "body",
        "*.body",
      ],
      censor: "[redacted]",
    },
  };
}
