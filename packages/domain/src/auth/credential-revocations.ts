import { randomBytes } from "node:crypto";
import type { Database, DatabaseHandle } from "@allot/db/create-database";
import { sql } from "drizzle-orm";
import { credentialCacheFor } from "./credential-cache";

/** What the triggers of migration 0023 notify, with the user id as payload, when a credential may have ended. */
export const REVOCATION_CHANNEL = "allot_credentials_revoked";
/** A fence not seen back within this time is taken down, and the whole cache with it. */
const FENCE_TIMEOUT_MS = 1_000;

const fenceChannels = new WeakMap<Database, string>();

/**
 * Starts evicting cached credentials of `database` when their user's rows change, whichever
 * process (an API instance, the CLI, cron, plain SQL) changed them; resolves to the function that
 * stops it. Also listens on a channel of this process's own, for the fences of `fenceCredentials`.
 */
export async function listenForCredentialRevocations(database: DatabaseHandle): Promise<() => Promise<void>> {
  const cache = credentialCacheFor(database.db, "credentials");
  const fenceChannel = `allot_credential_fence_${randomBytes(8).toString("hex")}`;
  // The handle's callback type carries no payload, but both drivers pass it as the first argument.
  const stopRevocations = await database.listen(REVOCATION_CHANNEL, (...args: unknown[]) => {
    const userId = Number(args[0]);
    if (Number.isInteger(userId)) cache.evictUser(userId);
    else cache.clear();
  });
  const stopFences = await database.listen(fenceChannel, (...args: unknown[]) => {
    cache.lift(Number(args[0]));
  });
  fenceChannels.set(database.db, fenceChannel);
  cache.listening = true;
  return async () => {
    cache.listening = false;
    fenceChannels.delete(database.db);
    cache.clear();
    await stopRevocations();
    await stopFences();
  };
}

/**
 * Called once a write request is answered, before the answer leaves: whatever it ended (a session,
 * a key, a user) was committed, and its NOTIFY is on its way to this process's listener. Until a
 * NOTIFY sent now on the fence channel comes back (PostgreSQL delivers them in commit order, so the
 * revocations arrive first), the cache is bypassed: the next request on this instance sees the
 * database. Without a listener the cache is simply emptied.
 */
export function fenceCredentials(db: Database): void {
  const cache = credentialCacheFor(db, "credentials");
  const channel = fenceChannels.get(db);
  if (!cache.listening || !channel) {
    cache.clear();
    return;
  }
  const fence = cache.fence();
  const giveUp = () => {
    if (cache.lift(fence)) cache.clear();
  };
  setTimeout(giveUp, FENCE_TIMEOUT_MS).unref();
  db.execute(sql`select pg_notify(${channel}, ${String(fence)})`).catch(giveUp);
}
