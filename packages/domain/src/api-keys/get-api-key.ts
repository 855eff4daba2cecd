import type { apiKeyRoutes } from "@allot/contract/api-keys/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { apiKeys } from "@allot/db/schema/api-keys";
import { and, eq } from "drizzle-orm";
import { NotFound } from "../shared/errors";
import type { UseCaseContext } from "../shared/use-case-context";
import { toApiKeyView } from "./api-key-view";

export const API_KEY_NOT_FOUND = "No API key matches the given uuid.";

/** One of the caller's keys; another user's key is not found. */
export async function getApiKey(
  { db, actor }: UseCaseContext,
  { uuid }: RouteInput<typeof apiKeyRoutes.get>,
) {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, uuid), eq(apiKeys.userId, actor.userId)))
    .limit(1);
  if (!row) throw new NotFound(API_KEY_NOT_FOUND);
  return toApiKeyView(row);
}
