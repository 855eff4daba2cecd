import { webhookRoutes } from "@allot/contract/webhooks/routes";
import { createWebhook } from "@allot/domain/webhooks/create-webhook";
import { deleteWebhook } from "@allot/domain/webhooks/delete-webhook";
import { getWebhook } from "@allot/domain/webhooks/get-webhook";
import { listWebhookDeliveries } from "@allot/domain/webhooks/list-webhook-deliveries";
import { listWebhooks } from "@allot/domain/webhooks/list-webhooks";
import { redeliverWebhook } from "@allot/domain/webhooks/redeliver-webhook";
import { rotateWebhookSecret } from "@allot/domain/webhooks/rotate-webhook-secret";
import { testWebhook } from "@allot/domain/webhooks/test-webhook";
import { updateWebhook } from "@allot/domain/webhooks/update-webhook";
import { bindRoutes, paged } from "../../trpc/bind-routes";

/** Webhooks (docs/spec/extensions.md §4): the caller's own, in the contract's order. */
export const webhooksRouter = bindRoutes(webhookRoutes, {
  list: paged(listWebhooks),
  create: createWebhook,
  get: getWebhook,
  update: updateWebhook,
  delete: deleteWebhook,
  rotateSecret: rotateWebhookSecret,
  test: testWebhook,
  listDeliveries: paged(listWebhookDeliveries),
  redeliver: redeliverWebhook,
});
