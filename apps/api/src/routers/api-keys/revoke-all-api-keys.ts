import { revokeAllApiKeysRoute } from "@allot/contract/api-keys/routes";
import { revokeAllApiKeys } from "@allot/domain/api-keys/revoke-all-api-keys";
import { procedureFor } from "../../trpc/trpc";

export const revokeAllApiKeysProcedure = procedureFor(revokeAllApiKeysRoute).mutation(({ ctx }) =>
  revokeAllApiKeys(ctx),
);
