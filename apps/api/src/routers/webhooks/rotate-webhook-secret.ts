import { rotateWebhookSecretRoute } from "@allot/contract/webhooks/routes";
import { rotateWebhookSecret } from "@allot/domain/webhooks/rotate-webhook-secret";
import { procedureFor } from "../../trpc/trpc";

export const rotateWebhookSecretProcedure = procedureFor(rotateWebhookSecretRoute).mutation(
  ({ ctx, input }) => rotateWebhookSecret(ctx, input, { vault: ctx.vault }),
);
