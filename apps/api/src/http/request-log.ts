import { allRoutes } from "@allot/contract/routes";
import { maskLinkTokens } from "@allot/domain/email/link-tokens";
import type { LoggerSettings } from "@allot/logging/create-logger";
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
      "gi",
    ),
);

/**
 * The segments a token follows in a token route (`password-reset`, `change-email`,
 * `invitations`): on a path spelled some other way (encoded, with dot segments), the segment after
 * one of them is masked, wherever it stands.
 */
const TOKEN_PARENTS = new Set(
  allRoutes
    .filter((route) => route.path.includes("/{token}"))
    .map((route) => route.path.slice(0, route.path.indexOf("/{token}")).split("/").pop()?.toLowerCase())
    .filter((segment): segment is string => !!segment && !segment.startsWith("{")),
);

// A path in a text: from a slash to the next space or quote (query included).
const PATH_IN_TEXT = /\/[^\s"'<>]*/g;
// Decoding rounds tried on one path (`%25252D` is three); a path still changing after them is masked whole.
const MAX_DECODING_ROUNDS = 8;

/**
 * A text (a URL, an error message) with the token of every token path in it masked: paths as
 * written, and `/api/…` and `/links/…` paths as a server or proxy may read them — percent-decoded
 * (any number of times, `%2F` included), dot segments resolved, empty segments skipped — which are
 * then shown in that read form (decision 0050).
 */
export const maskTokenPaths = (text: string): string =>
  API_TOKEN_PATHS.reduce(
    (masked, pattern) => masked.replace(pattern, "$1[masked]"),
    maskLinkTokens(text.replace(PATH_IN_TEXT, maskReadPath)),
  );

function maskReadPath(path: string): string {
  const read = readPath(path);
  if (read === null) return "[masked path]";
  const masked = maskTokenSegments(read);
  return masked === read ? path : masked;
}

/** The path decoded until nothing changes and its dot segments resolved; null if it never settles. */
function readPath(path: string): string | null {
  let decoded = path;
  for (let round = 0; ; round += 1) {
    const next = decoded.replace(/%([0-7][0-9a-f])/gi, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
    if (next === decoded) break;
    if (round === MAX_DECODING_ROUNDS) return null;
    decoded = next;
  }
  const [pathname = "", ...rest] = decoded.split(/(?=[?#])/);
  const resolved: string[] = [];
  for (const segment of pathname.split("/")) {
    if (segment === ".") continue;
    if (segment === "..") resolved.pop();
    else resolved.push(segment);
  }
  return [resolved.join("/"), ...rest].join("");
}

/**
 * Masks, in an `/api/…` or `/links/…` path (any case), the segment after a token route's parent or
 * after `/links/<page>/`; other paths (a stack's file names) are left alone.
 */
function maskTokenSegments(path: string): string {
  const [pathname = "", ...rest] = path.split(/(?=[?#])/);
  const segments = pathname.split("/");
  const significant: string[] = [];
  const masked = segments.map((segment) => {
    if (segment === "") return segment;
    const root = significant[0]?.toLowerCase();
    const parent = significant.at(-1)?.toLowerCase();
    significant.push(segment);
    const isToken =
      (root === "api" && parent !== undefined && TOKEN_PARENTS.has(parent)) ||
      (root === "links" && significant.length === 3);
    return isToken ? "[masked]" : segment;
  });
  return [masked.join("/"), ...rest].join("");
}

/**
 * The server's logger rules (main.ts): request lines hold the method, the URL with its tokens masked,
 * the client address (`request.ip`, so TRUST_PROXY applies) and the status, never a header or a
 * body; `redact` also censors headers, cookies and bodies should any other line carry them.
 */
export const REQUEST_LOG_RULES = {
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
} satisfies Pick<LoggerSettings, "serializers" | "redact">;

/** The server's logger options with REQUEST_LOG_RULES, for a fastify of its own (tests). */
export function requestLogOptions(level: string): FastifyServerOptions["logger"] {
  return { level, ...REQUEST_LOG_RULES };
}
