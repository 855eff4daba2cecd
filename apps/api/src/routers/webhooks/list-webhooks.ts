import { listWebhooksRoute } from "@allot/contract/webhooks/routes";
import { listWebhooks } from "@allot/domain/webhooks/list-webhooks";
import { toPage } from "../../http/page-links";
import { procedureFor } from "../../trpc/trpc";

export const listWebhooksProcedure = procedureFor(listWebhooksRoute).query(async ({ ctx, input }) =>
  toPage(ctx.http.request, await listWebhooks(ctx, input)),
);
