import type { RouteSpec } from "@allot/contract/http/route";
import type { Database } from "@allot/db/create-database";
import { readIdempotencyKey } from "@allot/domain/idempotency/idempotency-key";
import { requestDigest } from "@allot/domain/idempotency/request-fingerprint";
import { runIdempotently } from "@allot/domain/idempotency/run-idempotently";
import type { Actor } from "@allot/domain/shared/actor";
import type { Context } from "./context";

const HOUR_MS = 3_600_000;

/** What a tRPC middleware's `next()` answers: the procedure's output, or its error. */
type NextResult = { ok: true; data: unknown } | { ok: false; error: unknown };

/**
 * docs/spec/extensions.md §1 for a signed-in caller's write: with an `Idempotency-Key`, the rest of
 * the procedure (the use case and its output) runs inside one transaction that also records its
 * answer (the use case's own transaction becomes a savepoint of it), or a recorded answer is
 * replayed with `Idempotent-Replayed: true` and nothing runs. Without the header, nothing changes.
 */
export async function idempotently<R extends NextResult>(
  route: RouteSpec,
  {
    ctx,
    input,
    next,
  }: {
    ctx: Context & { actor: Actor };
    input: unknown;
    next: (opts?: { ctx: { db: Database } }) => Promise<R>;
  },
): Promise<R> {
  const key = readIdempotencyKey(ctx.http.request.headers["idempotency-key"]);
  if (key === null) return next();
  const path = new URL(ctx.http.request.url, "http://allot.invalid").pathname;
  const outcome = await runIdempotently(
    ctx.db,
    ctx.services.vault,
    {
      userId: ctx.actor.userId,
      key,
      digest: requestDigest(route.method, path, input),
      now: ctx.now,
      ttlMs: ctx.config.idempotencyTtlHours * HOUR_MS,
    },
    // A transaction is a database whose own `transaction` is a savepoint: use cases run unchanged.
    (tx) => next({ ctx: { db: tx as unknown as Database } }),
    (result) =>
      result.ok
        ? { status: route.status, body: result.data === undefined ? null : JSON.stringify(result.data) }
        : null,
  );
  if ("result" in outcome) return outcome.result;
  ctx.http.reply.header("idempotent-replayed", "true");
  const { body } = outcome.replay;
  // tRPC's own shape of a middleware's success (its marker is a type brand only).
  return {
    ok: true,
    data: body === null ? undefined : JSON.parse(body),
    marker: "middlewareMarker",
  } as unknown as R;
}
