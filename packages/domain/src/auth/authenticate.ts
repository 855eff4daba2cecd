import type { Database } from "@allot/db/create-database";
import { perDatabase } from "@allot/db/per-database";
import { apiKeys } from "@allot/db/schema/api-keys";
import { sessions } from "@allot/db/schema/sessions";
import { users } from "@allot/db/schema/users";
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Actor } from "../shared/actor";
import { Unauthenticated } from "../shared/errors";
import type { AccessTokens } from "./access-tokens";
import { type CachedCredential, credentialCacheFor } from "./credential-cache";
import { sha256 } from "./token-digest";

// last_used_at is written at most this often per key, so a busy importer is not a write per request.
const LAST_USED_GRANULARITY_MS = 60_000;

const buildSessionLookup = (db: Database, _key: "session") =>
  db
    .select({
      username: users.username,
      isStaff: users.isStaff,
      isActive: users.isActive,
      endedAt: sessions.endedAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sql.placeholder("sessionId")), eq(sessions.userId, sql.placeholder("userId"))))
    .limit(1)
    .prepare("authenticate_session");

// Every Bearer request runs it: built once per database handle, not once per request.
const sessionLookup = perDatabase(buildSessionLookup);

/**
 * A Bearer access token: valid signature, not expired, its session still open, its user active.
 * A success is reused for a second (credential-cache.ts); the expiry is checked every time.
 */
export async function authenticateAccessToken(
  db: Database,
  tokens: AccessTokens,
  token: string,
  now = new Date(),
): Promise<Actor> {
  const cache = credentialCacheFor(db, "credentials");
  const digest = sha256(token);
  const cached = cache.get(digest);
  if (cached?.kind === "access_token") {
    if (cached.expiresAt <= now) throw new Unauthenticated("Token has expired.", "token_not_valid");
    return sessionActor(cached);
  }
  const lookup = cache.startLookup();
  const claims = await tokens.verify(token);
  const [row] = await sessionLookup(db, "session").execute({
    sessionId: claims.sessionId,
    userId: claims.userId,
  });
  if (!row || row.endedAt || !row.isActive) {
    throw new Unauthenticated("Token is invalid: its session has ended.", "token_not_valid");
  }
  const credential: CachedCredential = {
    kind: "access_token",
    userId: claims.userId,
    username: row.username,
    isStaff: row.isStaff,
    sessionId: claims.sessionId,
    expiresAt: claims.expiresAt,
  };
  cache.store(digest, credential, lookup);
  return sessionActor(credential);
}

const sessionActor = (credential: CachedCredential & { kind: "access_token" }): Actor => ({
  userId: credential.userId,
  username: credential.username,
  isStaff: credential.isStaff,
  credential: "session",
  sessionId: credential.sessionId,
  apiKey: null,
});

/**
 * An `Api-Key` credential: known, not revoked, not expired, its user active. A success is reused
 * for a second (credential-cache.ts); the expiry is checked every time.
 */
export async function authenticateApiKey(db: Database, key: string, now = new Date()): Promise<Actor> {
  const cache = credentialCacheFor(db, "credentials");
  const digest = sha256(key);
  const cached = cache.get(digest);
  const credential = cached?.kind === "api_key" ? cached : await lookUpApiKey(db, digest, now);
  refuseExpired(credential.expiresAt, now);
  const lastUsedAt = credential.lastUsedAt;
  if (!lastUsedAt || now.getTime() - lastUsedAt.getTime() > LAST_USED_GRANULARITY_MS) {
    // Noted on the entry first: the requests that follow in the same second do not write again.
    credential.lastUsedAt = now;
    const stale = new Date(now.getTime() - LAST_USED_GRANULARITY_MS);
    await db
      .update(apiKeys)
      .set({ lastUsedAt: now })
      .where(
        and(
          eq(apiKeys.id, credential.apiKey.uuid),
          or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, stale)),
        ),
      );
  }
  return {
    userId: credential.userId,
    username: credential.username,
    isStaff: credential.isStaff,
    credential: "api_key",
    sessionId: null,
    apiKey: { ...credential.apiKey },
  };
}

/** The key of `digest` from the database, cached if it may be used; refused otherwise. */
async function lookUpApiKey(
  db: Database,
  digest: string,
  now: Date,
): Promise<CachedCredential & { kind: "api_key" }> {
  const cache = credentialCacheFor(db, "credentials");
  const lookup = cache.startLookup();
  const [row] = await db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      prefix: apiKeys.prefix,
      userId: apiKeys.userId,
      revokedAt: apiKeys.revokedAt,
      expiresAt: apiKeys.expiresAt,
      lastUsedAt: apiKeys.lastUsedAt,
      username: users.username,
      isStaff: users.isStaff,
      isActive: users.isActive,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.keyDigest, digest))
    .limit(1);
  if (!row) throw new Unauthenticated("Invalid API key: unknown key.", "authentication_failed");
  if (row.revokedAt)
    throw new Unauthenticated("Invalid API key: the key has been revoked.", "authentication_failed");
  refuseExpired(row.expiresAt, now);
  if (!row.isActive) throw new Unauthenticated("User is inactive.", "authentication_failed");
  const credential: CachedCredential & { kind: "api_key" } = {
    kind: "api_key",
    userId: row.userId,
    username: row.username,
    isStaff: row.isStaff,
    apiKey: { uuid: row.id, name: row.name, prefix: row.prefix },
    expiresAt: row.expiresAt,
    lastUsedAt: row.lastUsedAt,
  };
  cache.store(digest, credential, lookup);
  return credential;
}

function refuseExpired(expiresAt: Date | null, now: Date): void {
  if (expiresAt && expiresAt <= now) {
    throw new Unauthenticated("Invalid API key: the key has expired.", "authentication_failed");
  }
}
