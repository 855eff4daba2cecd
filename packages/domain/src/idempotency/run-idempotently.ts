import type { Database, Tx } from "@allot/db/create-database";
import { rowsOf } from "@allot/db/rows-of";
import { idempotencyKeys } from "@allot/db/schema/idempotency-keys";
import { and, eq, gt, sql } from "drizzle-orm";
import { isSealed, type SecretVault } from "../secrets/secret-vault";
import { Conflict, Unprocessable } from "../shared/errors";

// The advisory-lock class of keys in flight, beside the scheduler's ids (4_216_xxx).
const KEY_LOCK_CLASS = 4_216_200;

/** One request with a key: whose, which key, which request (`requestDigest`), as of when, kept how long. */
export interface KeyedRequest {
  userId: number;
  key: string;
  digest: string;
  now: Date;
  ttlMs: number;
}

/** A recorded answer: its status and JSON body (null for a bodiless one). */
export interface RecordedAnswer {
  status: number;
  body: string | null;
}

export class IdempotencyKeyInProgress extends Conflict {
  override readonly retryAfterSeconds = 1;
  constructor() {
    super(
      "A request with this Idempotency-Key is still being processed; try again in a moment.",
      "idempotency_key_in_progress",
    );
  }
}

const reused = () =>
  new Unprocessable(
    "This Idempotency-Key was used for another request (method, path or body); use a new key for a new request.",
    "idempotency_key_reused",
  );

/** Carries a failed outcome out of the transaction it rolls back. */
class RolledBack<R> {
  constructor(readonly result: R) {}
}

/**
 * Runs a keyed request in one transaction with its record (docs/spec/extensions.md §1): the key is
 * try-locked (409 while another request holds it; a crash releases it with the transaction), an
 * unexpired record of the same request is replayed (422 for another request), and otherwise `run`
 * gets the transaction; when `answerOf` gives its result an answer (a success), that answer is
 * recorded in the same transaction, so effect and record commit together or not at all. A result
 * with no answer (a failure) rolls everything back and records nothing. The record keeps the
 * request's digest as an HMAC under the server's key and the answer sealed (it may show a secret
 * once: an API key, a webhook secret), so the table reveals neither; a replay opens it (decision 0049).
 */
export async function runIdempotently<R>(
  db: Database,
  vault: SecretVault,
  request: KeyedRequest,
  run: (tx: Tx) => Promise<R>,
  answerOf: (result: R) => RecordedAnswer | null,
): Promise<{ replay: RecordedAnswer } | { result: R }> {
  try {
    return await db.transaction(async (tx) => {
      const [lock] = rowsOf<{ locked: boolean }>(
        await tx.execute(
          sql`select pg_try_advisory_xact_lock(${KEY_LOCK_CLASS}, hashtext(${`${request.userId}:${request.key}`})) as locked`,
        ),
      );
      if (!lock?.locked) throw new IdempotencyKeyInProgress();
      const [recorded] = await tx
        .select()
        .from(idempotencyKeys)
        .where(
          and(
            eq(idempotencyKeys.userId, request.userId),
            eq(idempotencyKeys.key, request.key),
            gt(idempotencyKeys.expiresAt, request.now),
          ),
        );
      if (recorded) {
        if (!isSealed(recorded.body)) {
          // Recorded before sealing, and not yet converted at start-up: its digest is kept as it is.
          if (recorded.fingerprint !== request.digest) throw reused();
          return { replay: { status: recorded.status, body: recorded.body } };
        }
        if (!vault.fingerprints(request.digest).includes(recorded.fingerprint)) throw reused();
        const body = vault.open("idempotency-answer", recorded.body);
        return { replay: { status: recorded.status, body: body === "" ? null : body } };
      }
      const result = await run(tx);
      const answer = answerOf(result);
      if (!answer) throw new RolledBack(result);
      const values = {
        fingerprint: vault.fingerprint(request.digest),
        status: answer.status,
        // A bodiless answer is sealed as "" (no JSON body is empty): every record's body is sealed.
        body: vault.seal("idempotency-answer", answer.body ?? ""),
        createdAt: request.now,
        expiresAt: new Date(request.now.getTime() + request.ttlMs),
      };
      // An expired record of the key is replaced: the key is free again after its TTL.
      await tx
        .insert(idempotencyKeys)
        .values({ userId: request.userId, key: request.key, ...values })
        .onConflictDoUpdate({ target: [idempotencyKeys.userId, idempotencyKeys.key], set: values });
      return { result };
    });
  } catch (error) {
    if (error instanceof RolledBack) return { result: error.result as R };
    throw error;
  }
}
