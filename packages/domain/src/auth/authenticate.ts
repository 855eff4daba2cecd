import type { Database } from "@allot/db/create-database";
import { perDatabase } from "@allot/db/per-database";
import { apiKeys } from "@allot/db/schema/api-keys";
import { sessions } from "@allot/db/schema/sessions";
import { users } from "@allot/db/schema/users";
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Actor } from "../shared/actor";
import { Unauthenticated } from "../shared/errors";
import type { AccessTokens } from "./access-tokens";
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

/** A Bearer access token: valid signature, not expired, its session still open, its user active. */
export async function authenticateAccessToken(
  db: Database,
  tokens: AccessTokens,
  token: string,
): Promise<Actor> {
  const claims = await tokens.verify(token);
  const [row] = await sessionLookup(db, "session").execute({
    sessionId: claims.sessionId,
    userId: claims.userId,
  });
  if (!row || row.endedAt || !row.isActive) {
    throw new Unauthenticated("Token is invalid: its session has ended.", "token_not_valid");
  }
  return {
    userId: claims.userId,
    username: row.username,
    isStaff: row.isStaff,
    credential: "session",
    sessionId: claims.sessionId,
    apiKey: null,
  };
}

/** An `Api-Key` credential: known, not revoked, not expired, its user active. */
export async function authenticateApiKey(db: Database, key: string, now = new Date()): Promise<Actor> {
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
    .where(eq(apiKeys.keyDigest, sha256(key)))
    .limit(1);
  if (!row) throw new Unauthenticated("Invalid API key: unknown key.", "authentication_failed");
  if (row.revokedAt)
    throw new Unauthenticated("Invalid API key: the key has been revoked.", "authentication_failed");
  if (row.expiresAt && row.expiresAt <= now) {
    throw new Unauthenticated("Invalid API key: the key has expired.", "authentication_failed");
  }
  if (!row.isActive) throw new Unauthenticated("User is inactive.", "authentication_failed");
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_GRANULARITY_MS) {
    const stale = new Date(now.getTime() - LAST_USED_GRANULARITY_MS);
    await db
      .update(apiKeys)
      .set({ lastUsedAt: now })
      .where(and(eq(apiKeys.id, row.id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, stale))));
  }
  return {
    userId: row.userId,
    username: row.username,
    isStaff: row.isStaff,
    credential: "api_key",
    sessionId: null,
    apiKey: { uuid: row.id, name: row.name, prefix: row.prefix },
  };
}
