import type { apiKeyRoutes } from "@allot/contract/api-keys/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { apiKeys } from "@allot/db/schema/api-keys";
import { and, eq } from "drizzle-orm";
import { NotFound, ValidationFailed } from "../shared/errors";
import type { UseCaseContext } from "../shared/use-case-context";
import { disableWebhooksOfApiKeys } from "../webhooks/disable-credential-webhooks";
import { toApiKeyView } from "./api-key-view";
import { API_KEY_NOT_FOUND } from "./get-api-key";

/**
 * Revokes one of the caller's keys: it stops authenticating at once and stays listed. The webhooks
 * it made are disabled in the same transaction (decision 0048).
 */
export async function revokeApiKey(
  { db, actor, now }: UseCaseContext,
  { uuid }: RouteInput<typeof apiKeyRoutes.revoke>,
) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.id, uuid), eq(apiKeys.userId, actor.userId)))
      .for("update")
      .limit(1);
    if (!row) throw new NotFound(API_KEY_NOT_FOUND);
    if (row.revokedAt) throw ValidationFailed.general("This API key has already been revoked.");
    const [revoked] = await tx
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(eq(apiKeys.id, row.id))
      .returning();
    if (!revoked) throw new Error("api key update returned nothing");
    await disableWebhooksOfApiKeys(tx, actor.userId, [revoked.id]);
    return toApiKeyView(revoked);
  });
}
