import { createWebhookRoute } from "@allot/contract/webhooks/routes";
import { createWebhook } from "@allot/domain/webhooks/create-webhook";
import { procedureFor } from "../../trpc/trpc";

export const createWebhookProcedure = procedureFor(createWebhookRoute).mutation(({ ctx, input }) =>
  createWebhook(ctx, input, { policy: ctx.config.webhooks, vault: ctx.vault }),
);
