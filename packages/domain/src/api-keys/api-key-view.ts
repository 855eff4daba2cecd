import type { apiKeys } from "@allot/db/schema/api-keys";

type ApiKeyRow = typeof apiKeys.$inferSelect;

/** The wire APIKey: never the key material, only its displayable prefix. */
export const toApiKeyView = (row: ApiKeyRow) => ({
  uuid: row.id,
  name: row.name,
  prefix: row.prefix,
  expires_at: row.expiresAt?.toISOString() ?? null,
  last_used_at: row.lastUsedAt?.toISOString() ?? null,
  revoked_at: row.revokedAt?.toISOString() ?? null,
  created_at: row.createdAt.toISOString(),
});
