import { refreshTokens, sessions } from "@allot/db/schema/sessions";
import { users } from "@allot/db/schema/users";
import { eq } from "drizzle-orm";
import { Unauthenticated } from "../shared/errors";
import type { PublicContext } from "../shared/use-case-context";
import { endSession, type IssuedCredentials, issueCredentials } from "./sessions";
import { sha256 } from "./token-digest";

export interface RefreshResult {
  access: string;
  /** The replacement refresh token when rotating; null when the old one stays in use. */
  rotated: IssuedCredentials | null;
}

/**
 * What the refresh and logout routes are given: no body, the refresh token their cookie carries
 * (the API reads it; undefined when none was sent).
 */
export interface RefreshCookie {
  refreshToken: string | undefined;
}

const NOT_VALID = "token_not_valid";

/**
 * A refresh token (from the cookie) in, a new access token out. With rotation the presented token
 * is blacklisted and a new one issued (a fresh 14-day window). Presenting a blacklisted token is
 * taken as theft: its whole session ends. The token row is locked, so of two concurrent refreshes
 * with one token only the first succeeds.
 */
export async function refreshSession(
  { db, now, services: { tokens, refreshRotation } }: PublicContext<"tokens" | "refreshRotation">,
  { refreshToken }: RefreshCookie,
): Promise<RefreshResult> {
  if (!refreshToken) throw new Unauthenticated("No refresh token cookie was sent.", "not_authenticated");
  const outcome = await db.transaction(async (tx) => {
    const [row] = await tx
      .select({
        id: refreshTokens.id,
        sessionId: refreshTokens.sessionId,
        expiresAt: refreshTokens.expiresAt,
        blacklistedAt: refreshTokens.blacklistedAt,
        userId: sessions.userId,
        endedAt: sessions.endedAt,
        isActive: users.isActive,
      })
      .from(refreshTokens)
      .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(refreshTokens.tokenDigest, sha256(refreshToken)))
      .for("update", { of: refreshTokens })
      .limit(1);
    if (!row) return { refused: "Token is invalid." } as const;
    if (row.blacklistedAt) {
      await endSession(tx, row.sessionId, now);
      return { refused: "Token is blacklisted." } as const;
    }
    if (row.expiresAt <= now) return { refused: "Token has expired." } as const;
    if (row.endedAt) return { refused: "Token is invalid: its session has ended." } as const;
    if (!row.isActive) return { refused: "User is inactive." } as const;

    if (!refreshRotation) {
      return {
        result: {
          access: await tokens.sign({ userId: row.userId, sessionId: row.sessionId }, now),
          rotated: null,
        },
      };
    }
    await tx.update(refreshTokens).set({ blacklistedAt: now }).where(eq(refreshTokens.id, row.id));
    const rotated = await issueCredentials(tx, tokens, row.userId, row.sessionId, now);
    return { result: { access: rotated.access, rotated } };
  });
  // Thrown after the transaction, so ending a session on reuse is committed, not rolled back.
  if ("refused" in outcome) throw new Unauthenticated(outcome.refused, NOT_VALID);
  return outcome.result;
}
