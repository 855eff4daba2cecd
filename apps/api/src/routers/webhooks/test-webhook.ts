import { testWebhookRoute } from "@allot/contract/webhooks/routes";
import { testWebhook } from "@allot/domain/webhooks/test-webhook";
import { procedureFor } from "../../trpc/trpc";

export const testWebhookProcedure = procedureFor(testWebhookRoute).mutation(({ ctx, input }) =>
  testWebhook(ctx, input),
);
