/** PostgreSQL's SQLSTATE of an error from either driver (drizzle wraps it in `cause`). */
export function sqlState(error: unknown): string | undefined {
  for (let e: unknown = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

export const isUniqueViolation = (error: unknown) => sqlState(error) === "23505";
export const isForeignKeyViolation = (error: unknown) => sqlState(error) === "23503";

/** Errors of every layer below the SQL: `cause` chains and the AggregateError of a failed connect. */
function* errorChain(error: unknown): Generator<Record<string, unknown>> {
  const seen = new Set<unknown>();
  const pending = [error];
  while (pending.length) {
    const e = pending.pop();
    if (!e || typeof e !== "object" || seen.has(e)) continue;
    seen.add(e);
    yield e as Record<string, unknown>;
    pending.push((e as { cause?: unknown }).cause);
    const inner = (e as { errors?: unknown }).errors;
    if (Array.isArray(inner)) pending.push(...inner);
  }
}

// Two writers that each wait on the other (deadlock_detected) or whose snapshots clash
// (serialization_failure): PostgreSQL has rolled one back, and running it again is the cure.
const CONFLICT_STATES = new Set(["40001", "40P01"]);

export const isTransientConflict = (error: unknown) => CONFLICT_STATES.has(sqlState(error) ?? "");

// The server going away or not taking connections yet: shutdown/restart (57P01–57P03), a lost or
// refused connection (class 08), too many connections (53300), and the drivers' socket errors.
const UNAVAILABLE_STATES = /^(57P0[123]|08...|53300)$/;
const UNAVAILABLE_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

export function isDatabaseUnavailable(error: unknown): boolean {
  for (const e of errorChain(error)) {
    const code = e.code;
    if (typeof code !== "string") continue;
    if (UNAVAILABLE_CODES.has(code) || UNAVAILABLE_STATES.test(code)) return true;
  }
  return false;
}
