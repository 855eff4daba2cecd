import type { RouteInput } from "@allot/contract/http/route";
import type { webhookRoutes } from "@allot/contract/webhooks/routes";
import type { UseCaseContext } from "../shared/use-case-context";
import { findOwnWebhook } from "./find-own-webhook";
import { toWebhookView } from "./webhook-view";

export async function getWebhook(
  { db, actor }: UseCaseContext,
  { id }: RouteInput<typeof webhookRoutes.get>,
) {
  return toWebhookView(await findOwnWebhook(db, actor, id));
}
