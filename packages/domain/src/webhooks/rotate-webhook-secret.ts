import type { RouteInput } from "@allot/contract/http/route";
import type { webhookRoutes } from "@allot/contract/webhooks/routes";
import { webhooks } from "@allot/db/schema/webhooks";
import { eq } from "drizzle-orm";
import type { UseCaseContext } from "../shared/use-case-context";
import { findOwnWebhook } from "./find-own-webhook";
import { generateWebhookSecret } from "./webhook-secret";
import { toWebhookView } from "./webhook-view";

/** How long a rotated-out secret keeps signing beside the new one: time to deploy the new one. */
export const PREVIOUS_SECRET_SIGNS_MS = 24 * 60 * 60_000;

/**
 * A new secret; the one it replaces signs beside it for 24 hours. A second rotation within them
 * drops the oldest: two secrets sign at most. Both are kept sealed (the old one as it was stored).
 */
export async function rotateWebhookSecret(
  { db, actor, now, services: { vault } }: UseCaseContext<"vault">,
  { id }: RouteInput<typeof webhookRoutes.rotateSecret>,
) {
  return db.transaction(async (tx) => {
    const current = await findOwnWebhook(tx, actor, id, { forUpdate: true });
    const secret = generateWebhookSecret();
    const [row] = await tx
      .update(webhooks)
      .set({
        secret: vault.seal("webhook-secret", secret),
        previousSecret: current.secret,
        previousSecretExpiresAt: new Date(now.getTime() + PREVIOUS_SECRET_SIGNS_MS),
      })
      .where(eq(webhooks.id, id))
      .returning();
    if (!row) throw new Error("webhook update returned nothing");
    return { ...toWebhookView(row), secret };
  });
}
