import { updateWebhookRoute } from "@allot/contract/webhooks/routes";
import { updateWebhook } from "@allot/domain/webhooks/update-webhook";
import { procedureFor } from "../../trpc/trpc";

export const updateWebhookProcedure = procedureFor(updateWebhookRoute).mutation(({ ctx, input }) =>
  updateWebhook(ctx, input, { policy: ctx.config.webhooks, vault: ctx.vault }),
);
