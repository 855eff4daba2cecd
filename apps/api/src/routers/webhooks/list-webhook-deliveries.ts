import { listWebhookDeliveriesRoute } from "@allot/contract/webhooks/routes";
import { listWebhookDeliveries } from "@allot/domain/webhooks/list-webhook-deliveries";
import { toPage } from "../../http/page-links";
import { procedureFor } from "../../trpc/trpc";

export const listWebhookDeliveriesProcedure = procedureFor(listWebhookDeliveriesRoute).query(
  async ({ ctx, input }) => toPage(ctx.http.request, await listWebhookDeliveries(ctx, input)),
);
