import type { Database } from "@allot/db/create-database";
import { apiKeys } from "@allot/db/schema/api-keys";
import { and, eq } from "drizzle-orm";
import type { Actor } from "../shared/actor";
import { NotFound } from "../shared/errors";
import { toApiKeyView } from "./api-key-view";

export const API_KEY_NOT_FOUND = "No API key matches the given uuid.";

/** One of the caller's keys; another user's key is not found. */
export async function getApiKey(db: Database, actor: Actor, uuid: string) {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, uuid), eq(apiKeys.userId, actor.userId)))
    .limit(1);
  if (!row) throw new NotFound(API_KEY_NOT_FOUND);
  return toApiKeyView(row);
}
