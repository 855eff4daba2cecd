import type { Database, Tx } from "@allot/db/create-database";
import { refreshTokens, sessions } from "@allot/db/schema/sessions";
import { and, eq, isNull } from "drizzle-orm";
import type { AccessTokens } from "./access-tokens";
import { randomToken, sha256 } from "./token-digest";

export const REFRESH_TOKEN_DAYS = 14;

export interface IssuedCredentials {
  access: string;
  refreshToken: string;
  refreshExpiresAt: Date;
}

/** Adds a fresh refresh token to a session and signs an access token for it. */
export async function issueCredentials(
  tx: Database | Tx,
  tokens: AccessTokens,
  userId: number,
  sessionId: string,
  now: Date,
): Promise<IssuedCredentials> {
  const refreshToken = randomToken();
  const refreshExpiresAt = new Date(now.getTime() + REFRESH_TOKEN_DAYS * 86_400_000);
  await tx
    .insert(refreshTokens)
    .values({ sessionId, tokenDigest: sha256(refreshToken), expiresAt: refreshExpiresAt });
  return { access: await tokens.sign({ userId, sessionId }, now), refreshToken, refreshExpiresAt };
}

/** Starts a session for a user and issues its first credentials. */
export async function startSession(tx: Database | Tx, tokens: AccessTokens, userId: number, now: Date) {
  const [session] = await tx.insert(sessions).values({ userId }).returning({ id: sessions.id });
  if (!session) throw new Error("session insert returned nothing");
  return issueCredentials(tx, tokens, userId, session.id, now);
}

/** Ends a session (its access tokens stop working at once) and blacklists its refresh tokens. */
export async function endSession(tx: Database | Tx, sessionId: string, now: Date): Promise<void> {
  await tx
    .update(sessions)
    .set({ endedAt: now })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.endedAt)));
  await tx
    .update(refreshTokens)
    .set({ blacklistedAt: now })
    .where(and(eq(refreshTokens.sessionId, sessionId), isNull(refreshTokens.blacklistedAt)));
}
