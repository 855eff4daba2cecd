import { getWebhookRoute } from "@allot/contract/webhooks/routes";
import { getWebhook } from "@allot/domain/webhooks/get-webhook";
import { procedureFor } from "../../trpc/trpc";

export const getWebhookProcedure = procedureFor(getWebhookRoute).query(({ ctx, input }) =>
  getWebhook(ctx, input),
);
