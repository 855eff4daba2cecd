import type { apiKeyRoutes } from "@allot/contract/api-keys/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { apiKeys } from "@allot/db/schema/api-keys";
import { sha256 } from "../auth/token-digest";
import type { UseCaseContext } from "../shared/use-case-context";
import { apiKeyPrefix, generateApiKey } from "./api-key-material";
import { toApiKeyView } from "./api-key-view";

const DAY_MS = 86_400_000;

/** A new key of the caller; the plaintext is in this answer only, the database keeps its digest. */
export async function createApiKey(
  { db, actor, now }: UseCaseContext,
  input: RouteInput<typeof apiKeyRoutes.create>,
) {
  const key = generateApiKey();
  const [row] = await db
    .insert(apiKeys)
    .values({
      userId: actor.userId,
      name: input.name,
      prefix: apiKeyPrefix(key),
      keyDigest: sha256(key),
      // The application's clock, as an email change's request time: an undone change revokes the
      // keys created since, compared on one clock.
      createdAt: now,
      expiresAt: input.expiry_days ? new Date(now.getTime() + input.expiry_days * DAY_MS) : null,
    })
    .returning();
  if (!row) throw new Error("api key insert returned nothing");
  return { ...toApiKeyView(row), key };
}
