import { router } from "../../trpc/trpc";
import { createWebhookProcedure } from "./create-webhook";
import { deleteWebhookProcedure } from "./delete-webhook";
import { getWebhookProcedure } from "./get-webhook";
import { listWebhookDeliveriesProcedure } from "./list-webhook-deliveries";
import { listWebhooksProcedure } from "./list-webhooks";
import { redeliverWebhookProcedure } from "./redeliver-webhook";
import { rotateWebhookSecretProcedure } from "./rotate-webhook-secret";
import { testWebhookProcedure } from "./test-webhook";
import { updateWebhookProcedure } from "./update-webhook";

/** Webhooks (docs/spec/extensions.md §4): the caller's own, in the contract's order. */
export const webhooksRouter = router({
  list: listWebhooksProcedure,
  create: createWebhookProcedure,
  get: getWebhookProcedure,
  update: updateWebhookProcedure,
  delete: deleteWebhookProcedure,
  rotateSecret: rotateWebhookSecretProcedure,
  test: testWebhookProcedure,
  deliveries: listWebhookDeliveriesProcedure,
  redeliver: redeliverWebhookProcedure,
});
