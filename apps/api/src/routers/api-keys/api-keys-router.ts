import { apiKeyRoutes } from "@allot/contract/api-keys/routes";
import { createApiKey } from "@allot/domain/api-keys/create-api-key";
import { getApiKey } from "@allot/domain/api-keys/get-api-key";
import { listApiKeys } from "@allot/domain/api-keys/list-api-keys";
import { revokeAllApiKeys } from "@allot/domain/api-keys/revoke-all-api-keys";
import { revokeApiKey } from "@allot/domain/api-keys/revoke-api-key";
import { bindRoutes, paged } from "../../trpc/bind-routes";

/** The api-keys routes, bound to their use cases in the contract's order (`revoke-all/` before `{uuid}/`). */
export const apiKeysRouter = bindRoutes(apiKeyRoutes, {
  list: paged(listApiKeys),
  create: createApiKey,
  revokeAll: revokeAllApiKeys,
  get: getApiKey,
  revoke: revokeApiKey,
});
