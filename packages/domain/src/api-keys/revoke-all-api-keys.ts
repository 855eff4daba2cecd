import { apiKeys } from "@allot/db/schema/api-keys";
import { and, eq, gt, isNull, or } from "drizzle-orm";
import type { UseCaseContext } from "../shared/use-case-context";

/** Revokes every active key of the caller; expired and already revoked keys are left as they are. */
export async function revokeAllApiKeys({ db, actor, now }: UseCaseContext) {
  const revoked = await db
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
  return { revoked: revoked.length };
}
