import { isApiError } from "./api-error";

/*
 * A write journal keeps the `Idempotency-Key` of each write until the write is answered, so that
 * the same write sent again by a later run — after a crash, a kill, or a connection that died for
 * good between the server's commit and its answer — carries the same key and is answered from the
 * first one's record (docs/spec/extensions.md §1) instead of being applied twice.
 */

/**
 * How long an unanswered write's key is sent again: 23 hours, under the server's default 24-hour
 * record lifetime (IDEMPOTENCY_TTL_HOURS), so a resent key still finds the record of a write that
 * went through. A server keeping records for less needs a journal bound below its own.
 */
export const WRITE_JOURNAL_MAX_AGE_HOURS = 23;

/** One keyed write, as its journal sees it. */
export interface JournaledWrite {
  /**
   * SHA-256 (hex) of the base URL, the caller (a hash of the API key, or the user a login's token
   * names: never a credential), the method, the path with its query and the body as JSON: equal for
   * the same request built the same way by the same caller, and only then.
   */
  fingerprint: string;
  method: string;
  /** The route's path, e.g. `/v1/transactions/{id}/splits/`. */
  routePath: string;
  /** The path sent, below `/api`. */
  path: string;
}

/**
 * Where a client keeps the keys of its writes under way (`createClient({ writeJournal })`). A journal
 * should not throw for a storage failure: it warns and carries on, since the write matters more
 * than its entry. `fileWriteJournal` is one kept in a file.
 */
export interface WriteJournal {
  /**
   * Called before a keyed write leaves: the key to send. The key of an earlier attempt of the same
   * write (same fingerprint) that was never answered, is not under way, and is younger than the
   * journal's bound; otherwise `freshKey`, recorded before this resolves.
   */
  begin(write: JournaledWrite, freshKey: string): Promise<string>;
  /**
   * Called once the call is over. `settled`: its fate is known (see `settlesWrite`), so the entry
   * goes; otherwise it stays, and the next identical write sends the same key.
   */
  end(write: JournaledWrite, key: string, settled: boolean): Promise<void>;
}

/** Sends one keyed write with the key its journal gives, and tells the journal how it ended. */
export async function sendJournaled<T>(
  journal: WriteJournal,
  write: JournaledWrite,
  freshKey: string,
  send: (idempotencyKey: string) => Promise<T>,
): Promise<T> {
  const key = await journal.begin(write, freshKey);
  let settled = false;
  try {
    const result = await send(key);
    settled = true;
    return result;
  } catch (error) {
    settled = settlesWrite(error);
    throw error;
  } finally {
    await journal.end(write, key, settled);
  }
}

// Refused before the server looks the key up (the credential, throttling) or on the way there: the
// answer says nothing of an earlier attempt with the same key.
const REFUSED_BEFORE_THE_KEY = new Set([401, 403, 407, 408, 429]);

/**
 * Whether a failed call's error settles its write: an answer of the API itself (a JSON body) that
 * refuses the request — a 4xx, since a failed write records nothing and the same request is refused
 * again. Not settled, so the key is kept: a network failure, a 409 `idempotency_key_in_progress`
 * (the first attempt still runs), a 5xx or a page that is not the API's (a gateway's 502 or 504
 * while the server may have committed), and the refusals in REFUSED_BEFORE_THE_KEY. Keeping a key
 * too long is harmless: the server runs a key it holds no record of.
 */
function settlesWrite(error: unknown): boolean {
  if (!isApiError(error) || error.code === "unexpected_response") return false;
  if (error.status >= 500 || error.code === "idempotency_key_in_progress") return false;
  return !REFUSED_BEFORE_THE_KEY.has(error.status);
}
