import { createApiKeyRoute } from "@allot/contract/api-keys/routes";
import { createApiKey } from "@allot/domain/api-keys/create-api-key";
import { procedureFor } from "../../trpc/trpc";

export const createApiKeyProcedure = procedureFor(createApiKeyRoute).mutation(({ ctx, input }) =>
  createApiKey(ctx, input),
);
