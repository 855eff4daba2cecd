import type { RouteInput } from "@allot/contract/http/route";
import type { webhookRoutes } from "@allot/contract/webhooks/routes";
import { webhookDeliveries } from "@allot/db/schema/webhooks";
import { and, count, desc, eq, inArray } from "drizzle-orm";
import { paginate } from "../shared/pagination";
import type { UseCaseContext } from "../shared/use-case-context";
import { findOwnWebhook } from "./find-own-webhook";
import { toDeliveryView } from "./webhook-view";

const d = webhookDeliveries;

/** A webhook's deliveries, newest first, filtered by status and event type (each repeatable). */
export async function listWebhookDeliveries(
  { db, actor }: UseCaseContext,
  query: RouteInput<typeof webhookRoutes.listDeliveries>,
) {
  const webhook = await findOwnWebhook(db, actor, query.id);
  const where = and(
    eq(d.webhookId, webhook.id),
    query.status?.length ? inArray(d.status, query.status) : undefined,
    query.event_type?.length ? inArray(d.eventType, query.event_type) : undefined,
  );
  return paginate(
    query,
    async () => (await db.select({ n: count() }).from(d).where(where))[0]?.n ?? 0,
    async ({ offset, limit }) =>
      (
        await db
          .select()
          .from(d)
          .where(where)
          .orderBy(desc(d.createdAt), desc(d.id))
          .offset(offset)
          .limit(limit)
      ).map(toDeliveryView),
  );
}
