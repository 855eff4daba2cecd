import { apiKeys } from "@allot/db/schema/api-keys";
import { and, eq, gt, isNull, or } from "drizzle-orm";
import type { UseCaseContext } from "../shared/use-case-context";
import { disableWebhooksOfApiKeys } from "../webhooks/disable-credential-webhooks";

/**
 * Revokes every active key of the caller, and disables the webhooks they made, in one
 * transaction (decision 0048); expired and already revoked keys are left as they are.
 */
export async function revokeAllApiKeys({ db, actor, now }: UseCaseContext) {
  return db.transaction(async (tx) => {
    const revoked = await tx
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(
        and(
          eq(apiKeys.userId, actor.userId),
          isNull(apiKeys.revokedAt),
          or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)),
        ),
      )
      .returning({ id: apiKeys.id });
    await disableWebhooksOfApiKeys(
      tx,
      actor.userId,
      revoked.map((key) => key.id),
    );
    return { revoked: revoked.length };
  });
}
