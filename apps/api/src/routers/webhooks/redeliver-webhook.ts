import { redeliverWebhookRoute } from "@allot/contract/webhooks/routes";
import { redeliverWebhook } from "@allot/domain/webhooks/redeliver-webhook";
import { procedureFor } from "../../trpc/trpc";

export const redeliverWebhookProcedure = procedureFor(redeliverWebhookRoute).mutation(({ ctx, input }) =>
  redeliverWebhook(ctx, input),
);
