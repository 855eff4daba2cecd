import type { Tx } from "@allot/db/create-database";
import { refreshTokens, sessions } from "@allot/db/schema/sessions";
import { and, eq, inArray, isNull, ne } from "drizzle-orm";
import { disableWebhooksOfSessions } from "../webhooks/disable-credential-webhooks";

/**
 * Ends every open session of a user but the one kept (the caller's, on a password change): their
 * access tokens stop at once and their refresh tokens are blacklisted, and the webhooks they made
 * are disabled (a reset, a password change and an undone email change call it: one of them may be
 * an intruder's; decision 0048). API keys are not sessions and stay as they are, with their webhooks.
 */
export async function endUserSessions(
  tx: Tx,
  userId: number,
  now: Date,
  options: { keep?: string | null } = {},
): Promise<void> {
  const open = and(
    eq(sessions.userId, userId),
    isNull(sessions.endedAt),
    ...(options.keep ? [ne(sessions.id, options.keep)] : []),
  );
  // Refresh tokens first, while "open" still selects the sessions being ended.
  await tx
    .update(refreshTokens)
    .set({ blacklistedAt: now })
    .where(
      and(
        inArray(refreshTokens.sessionId, tx.select({ id: sessions.id }).from(sessions).where(open)),
        isNull(refreshTokens.blacklistedAt),
      ),
    );
  const ended = await tx.update(sessions).set({ endedAt: now }).where(open).returning({ id: sessions.id });
  await disableWebhooksOfSessions(
    tx,
    userId,
    ended.map((session) => session.id),
  );
}
