import type { RouteInput } from "@allot/contract/http/route";
import type { webhookRoutes } from "@allot/contract/webhooks/routes";
import { webhooks } from "@allot/db/schema/webhooks";
import { eq } from "drizzle-orm";
import type { UseCaseContext } from "../shared/use-case-context";
import { findOwnWebhook } from "./find-own-webhook";

/** Deletes the webhook and its deliveries (cascade): nothing more is sent to it. */
export async function deleteWebhook(
  { db, actor }: UseCaseContext,
  { id }: RouteInput<typeof webhookRoutes.delete>,
) {
  await findOwnWebhook(db, actor, id);
  await db.delete(webhooks).where(eq(webhooks.id, id));
}
