import type { RouteInput } from "@allot/contract/http/route";
import type { webhookRoutes } from "@allot/contract/webhooks/routes";
import { webhooks } from "@allot/db/schema/webhooks";
import { eq } from "drizzle-orm";
import type { UseCaseContext } from "../shared/use-case-context";
import { disableWebhook } from "./disable-webhook";
import { findOwnWebhook } from "./find-own-webhook";
import { emailWebhookCreated } from "./webhook-created-email";
import { holdLiveCredential, webhookCredentialOf } from "./webhook-credential";
import { checkWebhookUrl } from "./webhook-url";
import { toWebhookView } from "./webhook-view";

/** The reasons that took a webhook from a credential; enabling it again adopts it. */
const REVOKED = new Set<string | null>(["credential_revoked", "email_change_undone"]);

/**
 * PATCH: url, event_types, description, enabled. Enabling again forgets the failures before. A
 * webhook a revocation disabled is the owner's to take back after a look (decision 0048): the
 * credential enabling it becomes the one it answers to, and the owner is emailed as on creation.
 */
export async function updateWebhook(
  { db, actor, services: { webhookPolicy, vault } }: UseCaseContext<"webhookPolicy" | "vault">,
  { id, ...input }: RouteInput<typeof webhookRoutes.update>,
) {
  await findOwnWebhook(db, actor, id);
  const url = input.url === undefined ? undefined : await checkWebhookUrl(input.url, webhookPolicy);
  return db.transaction(async (tx) => {
    const current = await findOwnWebhook(tx, actor, id, { forUpdate: true });
    const disabling = input.enabled === false && current.enabled;
    if (disabling) await disableWebhook(tx, id, "owner", "Not sent: the webhook was disabled.");
    const enabling = input.enabled === true && !current.enabled;
    const adopting = enabling && REVOKED.has(current.disabledReason);
    if (adopting) await holdLiveCredential(tx, actor);
    const changes = Object.fromEntries(
      Object.entries({
        url,
        eventTypes: input.event_types,
        description: input.description,
        ...(enabling ? { enabled: true, failingSince: null, disabledReason: null } : {}),
        ...(adopting ? webhookCredentialOf(actor) : {}),
      }).filter(([, value]) => value !== undefined),
    );
    if (Object.keys(changes).length === 0)
      return toWebhookView(disabling ? { ...current, enabled: false, disabledReason: "owner" } : current);
    const [row] = await tx.update(webhooks).set(changes).where(eq(webhooks.id, id)).returning();
    if (!row) throw new Error("webhook update returned nothing");
    if (adopting) await emailWebhookCreated(tx, actor, row, "enabled again", { vault });
    return toWebhookView(row);
  });
}
