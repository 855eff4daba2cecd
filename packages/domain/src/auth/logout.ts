import { refreshTokens } from "@allot/db/schema/sessions";
import { eq } from "drizzle-orm";
import type { PublicContext } from "../shared/use-case-context";
import type { RefreshCookie } from "./refresh-session";
import { endSession } from "./sessions";
import { sha256 } from "./token-digest";

/**
 * Ends the session of a refresh token: the token (and any other of that session) is blacklisted
 * and the session's access tokens stop working. A missing or unknown token is not an error; an
 * expired or already blacklisted one still ends its session, since whoever holds it asked to.
 */
export async function logout({ db, now }: PublicContext, { refreshToken }: RefreshCookie): Promise<void> {
  if (!refreshToken) return;
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ sessionId: refreshTokens.sessionId })
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenDigest, sha256(refreshToken)))
      .for("update")
      .limit(1);
    if (row) await endSession(tx, row.sessionId, now);
  });
}
