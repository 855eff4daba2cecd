import { randomUUID } from "node:crypto";
import { type RouteSpec, takesIdempotencyKey } from "@allot/contract/http/route";

/*
 * The SDK owns the `Idempotency-Key` header (docs/spec/extensions.md §1): every write the server
 * deduplicates carries one — the caller's, or a fresh UUID — and keeps it across the SDK's own
 * retries, so a resent write is answered from the first one's record instead of applied twice.
 */

export const IDEMPOTENCY_KEY_HEADER = "idempotency-key";

/**
 * The key one call sends: the `idempotencyKey` option, else an `Idempotency-Key` in its headers
 * (any case), else a fresh UUID; null on a route that takes none.
 */
export function idempotencyKeyFor(
  // Public routes (the token endpoints, password reset, invitation links) and reads ignore the header.
  route: Pick<RouteSpec, "method" | "access" | "path" | "reads">,
  options: { idempotencyKey?: string; headers?: Record<string, string> },
): string | null {
  if (!takesIdempotencyKey(route)) return null;
  const fromHeaders = keyHeaderOf(options.headers);
  if (
    options.idempotencyKey !== undefined &&
    fromHeaders !== undefined &&
    options.idempotencyKey !== fromHeaders
  )
    throw new TypeError(
      `${route.method} ${route.path}: the idempotencyKey option and the Idempotency-Key header differ`,
    );
  return options.idempotencyKey ?? fromHeaders ?? randomUUID();
}

/** Whether the caller named the key of this call (the option, or an `Idempotency-Key` header). */
export const namesOwnKey = (options: { idempotencyKey?: string; headers?: Record<string, string> }) =>
  options.idempotencyKey !== undefined || keyHeaderOf(options.headers) !== undefined;

/** The headers without any `Idempotency-Key` (any case): the transport sets it, or leaves it out. */
export function withoutKeyHeader(headers: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => name.toLowerCase() !== IDEMPOTENCY_KEY_HEADER),
  );
}

/**
 * The key a failed call sent, so it can be sent again later to the same effect: on an `ApiError`
 * and on the network error thrown once retries are spent. Null when the call sent none.
 */
export function idempotencyKeyOf(error: unknown): string | null {
  const key = (error as { idempotencyKey?: unknown } | null)?.idempotencyKey;
  return typeof key === "string" ? key : null;
}

/** Marks a network error (undici's own) with the key its request sent; other values pass unchanged. */
export function markWithKey(error: unknown, idempotencyKey: string | null): unknown {
  if (idempotencyKey !== null && typeof error === "object" && error !== null && Object.isExtensible(error))
    Object.assign(error, { idempotencyKey });
  return error;
}

function keyHeaderOf(headers: Record<string, string> = {}): string | undefined {
  for (const [name, value] of Object.entries(headers))
    if (name.toLowerCase() === IDEMPOTENCY_KEY_HEADER) return value;
  return undefined;
}
