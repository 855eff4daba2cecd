import { refreshTokens, sessions } from "@allot/db/schema/sessions";
import { and, exists, gt, isNotNull, isNull, lte, not, or, sql } from "drizzle-orm";
import type { PublicContext } from "../shared/use-case-context";
import { ACCESS_TOKEN_MINUTES } from "./access-tokens";

export interface TokenCleanup {
  sessions: number;
  refreshTokens: number;
}

/**
 * The daily clean-up: deletes sessions that can no longer be used, then expired refresh tokens
 * (blacklisted or not). An ended session goes once none of its tokens is unexpired; an open one
 * only when its last token expired more than an access-token lifetime ago, so an access token
 * signed at the last refresh is never cut short.
 */
export async function cleanupTokens({ db, now }: PublicContext): Promise<TokenCleanup> {
  const accessCutoff = new Date(now.getTime() - ACCESS_TOKEN_MINUTES * 60_000);
  const liveTokenAfter = (instant: Date) =>
    exists(
      db
        .select({ one: sql`1` })
        .from(refreshTokens)
        .where(and(sql`${refreshTokens.sessionId} = ${sessions.id}`, gt(refreshTokens.expiresAt, instant))),
    );
  const deletedSessions = await db
    .delete(sessions)
    .where(
      or(
        and(isNotNull(sessions.endedAt), not(liveTokenAfter(now))),
        and(
          isNull(sessions.endedAt),
          lte(sessions.createdAt, accessCutoff),
          not(liveTokenAfter(accessCutoff)),
        ),
      ),
    )
    .returning({ id: sessions.id });
  const deletedTokens = await db
    .delete(refreshTokens)
    .where(lte(refreshTokens.expiresAt, now))
    .returning({ id: refreshTokens.id });
  return { sessions: deletedSessions.length, refreshTokens: deletedTokens.length };
}
