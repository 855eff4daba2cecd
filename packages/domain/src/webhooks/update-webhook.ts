import type { RouteInput } from "@allot/contract/http/route";
import type { updateWebhookRoute } from "@allot/contract/webhooks/routes";
import { webhooks } from "@allot/db/schema/webhooks";
import { eq } from "drizzle-orm";
import type { UseCaseContext } from "../shared/use-case-context";
import type { WebhookPolicy } from "./address-policy";
import { disableWebhook } from "./disable-webhook";
import { findOwnWebhook } from "./find-own-webhook";
import { checkWebhookUrl } from "./webhook-url";
import { toWebhookView } from "./webhook-view";

/** PATCH: url, event_types, description, enabled. Enabling again forgets the failures before. */
export async function updateWebhook(
  { db, actor }: UseCaseContext,
  { id, ...input }: RouteInput<typeof updateWebhookRoute>,
  { policy }: { policy: WebhookPolicy },
) {
  await findOwnWebhook(db, actor, id);
  const url = input.url === undefined ? undefined : await checkWebhookUrl(input.url, policy);
  return db.transaction(async (tx) => {
    const current = await findOwnWebhook(tx, actor, id, { forUpdate: true });
    if (input.enabled === false && current.enabled)
      await disableWebhook(tx, id, "Not sent: the webhook was disabled.");
    const changes = Object.fromEntries(
      Object.entries({
        url,
        eventTypes: input.event_types,
        description: input.description,
        ...(input.enabled === true && !current.enabled ? { enabled: true, failingSince: null } : {}),
      }).filter(([, value]) => value !== undefined),
    );
    if (Object.keys(changes).length === 0)
      return toWebhookView({ ...current, enabled: input.enabled ?? current.enabled });
    const [row] = await tx.update(webhooks).set(changes).where(eq(webhooks.id, id)).returning();
    if (!row) throw new Error("webhook update returned nothing");
    return toWebhookView(row);
  });
}
