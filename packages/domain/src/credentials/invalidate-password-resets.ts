import type { Tx } from "@allot/db/create-database";
import { passwordResetTokens } from "@allot/db/schema/credential-tokens";
import { and, eq, isNull } from "drizzle-orm";

/**
 * Marks a user's unused reset links as used. Called whenever the password or the address the
 * links went to changes, so an older link cannot undo it.
 */
export async function invalidatePasswordResets(tx: Tx, userId: number, now: Date): Promise<void> {
  await tx
    .update(passwordResetTokens)
    .set({ usedAt: now })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
}
