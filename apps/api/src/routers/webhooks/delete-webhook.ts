import { deleteWebhookRoute } from "@allot/contract/webhooks/routes";
import { deleteWebhook } from "@allot/domain/webhooks/delete-webhook";
import { procedureFor } from "../../trpc/trpc";

export const deleteWebhookProcedure = procedureFor(deleteWebhookRoute).mutation(({ ctx, input }) =>
  deleteWebhook(ctx, input),
);
