import { router } from "../../trpc/trpc";
import { createApiKeyProcedure } from "./create-api-key";
import { getApiKeyProcedure } from "./get-api-key";
import { listApiKeysProcedure } from "./list-api-keys";
import { revokeAllApiKeysProcedure } from "./revoke-all-api-keys";
import { revokeApiKeyProcedure } from "./revoke-api-key";

/** The api-keys procedures, in the contract's order (`revoke-all/` before `{uuid}/`). */
export const apiKeysRouter = router({
  list: listApiKeysProcedure,
  create: createApiKeyProcedure,
  revokeAll: revokeAllApiKeysProcedure,
  get: getApiKeyProcedure,
  revoke: revokeApiKeyProcedure,
});
