import type { apiKeyRoutes } from "@allot/contract/api-keys/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { apiKeys } from "@allot/db/schema/api-keys";
import { count, desc, eq } from "drizzle-orm";
import { paginate } from "../shared/pagination";
import type { UseCaseContext } from "../shared/use-case-context";
import { toApiKeyView } from "./api-key-view";

/** The caller's keys, newest first: active, expired and revoked alike. */
export async function listApiKeys(
  { db, actor }: UseCaseContext,
  query: RouteInput<typeof apiKeyRoutes.list>,
) {
  const mine = eq(apiKeys.userId, actor.userId);
  return paginate(
    query,
    async () => (await db.select({ n: count() }).from(apiKeys).where(mine))[0]?.n ?? 0,
    async ({ offset, limit }) =>
      (
        await db
          .select()
          .from(apiKeys)
          .where(mine)
          .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
          .offset(offset)
          .limit(limit)
      ).map(toApiKeyView),
  );
}
