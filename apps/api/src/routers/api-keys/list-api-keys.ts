import { listApiKeysRoute } from "@allot/contract/api-keys/routes";
import { listApiKeys } from "@allot/domain/api-keys/list-api-keys";
import { toPage } from "../../http/page-links";
import { procedureFor } from "../../trpc/trpc";

export const listApiKeysProcedure = procedureFor(listApiKeysRoute).query(async ({ ctx, input }) =>
  toPage(ctx.http.request, await listApiKeys(ctx, input)),
);
