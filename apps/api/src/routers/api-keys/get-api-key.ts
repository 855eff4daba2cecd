import { getApiKeyRoute } from "@allot/contract/api-keys/routes";
import { getApiKey } from "@allot/domain/api-keys/get-api-key";
import { procedureFor } from "../../trpc/trpc";

export const getApiKeyProcedure = procedureFor(getApiKeyRoute).query(({ ctx, input }) =>
  getApiKey(ctx, input),
);
