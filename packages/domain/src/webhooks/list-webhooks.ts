import type { RouteInput } from "@allot/contract/http/route";
import type { webhookRoutes } from "@allot/contract/webhooks/routes";
import { webhooks } from "@allot/db/schema/webhooks";
import { count, desc, eq } from "drizzle-orm";
import { paginate } from "../shared/pagination";
import type { UseCaseContext } from "../shared/use-case-context";
import { toWebhookView } from "./webhook-view";

/** The caller's webhooks, newest first. */
export async function listWebhooks(
  { db, actor }: UseCaseContext,
  query: RouteInput<typeof webhookRoutes.list>,
) {
  const mine = eq(webhooks.userId, actor.userId);
  return paginate(
    query,
    async () => (await db.select({ n: count() }).from(webhooks).where(mine))[0]?.n ?? 0,
    async ({ offset, limit }) =>
      (
        await db
          .select()
          .from(webhooks)
          .where(mine)
          .orderBy(desc(webhooks.createdAt), desc(webhooks.id))
          .offset(offset)
          .limit(limit)
      ).map(toWebhookView),
  );
}
