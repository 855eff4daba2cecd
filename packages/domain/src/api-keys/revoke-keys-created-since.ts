import type { Tx } from "@allot/db/create-database";
import { apiKeys } from "@allot/db/schema/api-keys";
import { and, eq, gte, isNull } from "drizzle-orm";
import { disableWebhooksOfApiKeys } from "../webhooks/disable-credential-webhooks";

/**
 * Revokes the user's keys created at or after a moment (an undone email change: whoever made the
 * change may have made them), with their webhooks. Older keys, and keys already revoked, are left
 * as they are.
 */
export async function revokeKeysCreatedSince(
  tx: Tx,
  userId: number,
  since: Date,
  now: Date,
): Promise<number> {
  const revoked = await tx
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.userId, userId), gte(apiKeys.createdAt, since), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  await disableWebhooksOfApiKeys(
    tx,
    userId,
    revoked.map((key) => key.id),
  );
  return revoked.length;
}
