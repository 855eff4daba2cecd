import { revokeApiKeyRoute } from "@allot/contract/api-keys/routes";
import { revokeApiKey } from "@allot/domain/api-keys/revoke-api-key";
import { procedureFor } from "../../trpc/trpc";

export const revokeApiKeyProcedure = procedureFor(revokeApiKeyRoute).mutation(({ ctx, input }) =>
  revokeApiKey(ctx, input),
);
