import type { DatabaseOptions } from "./create-database";

// Errors that mean the database named cannot be used as configured, not that Allot is broken:
// the server is down or elsewhere, the name or the login is wrong.
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
]);
// The embedded database's folder: not a folder, not this user's to write, a full or read-only disk.
const FOLDER_CODES = new Set(["ENOTDIR", "EEXIST", "EACCES", "EPERM", "EROFS", "ENOSPC"]);
// PostgreSQL: invalid authorization (class 28), unknown database, too many connections.
const SERVER_CODES = /^(28...|3D000|53300)$/;

/**
 * One line saying why the database at DATABASE_URL cannot be used at start-up (unreachable,
 * refused login, no such database), or null when the error is something else. The line names the
 * server and the database, never the URL's password.
 */
function databaseConnectionProblem(error: unknown, url: string): string | null {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; depth += 1) {
    const code = String((cause as { code?: unknown }).code ?? "");
    if (NETWORK_CODES.has(code) || SERVER_CODES.test(code)) {
      const reason = cause.message || code;
      return `The database at ${where(url)} cannot be used (${reason}): check DATABASE_URL, and that the server is running.`;
    }
    cause = cause.cause ?? (cause instanceof AggregateError ? cause.errors[0] : undefined);
  }
  return null;
}

/**
 * One line saying why the database cannot be opened at start-up as configured: DATABASE_URL's
 * server (above), or the embedded database's DATA_DIR folder. Null for anything else: a crash.
 */
export function databaseStartProblem(error: unknown, options: DatabaseOptions): string | null {
  if ("url" in options) return databaseConnectionProblem(error, options.url);
  if (!("dataDir" in options)) return null;
  const code = String((error as { code?: unknown } | null)?.code ?? "");
  if (!FOLDER_CODES.has(code)) return null;
  const reason = error instanceof Error ? error.message : code;
  return `The embedded database's folder cannot be used (${reason}): set DATA_DIR to a folder this user can write.`;
}

function where(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.host}${parsed.pathname}`;
  } catch {
    return "DATABASE_URL";
  }
}
