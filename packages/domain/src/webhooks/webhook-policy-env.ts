import { z } from "zod";
import type { WebhookPolicy } from "./address-policy";

/**
 * The two variables of docs/spec/extensions.md §4, read by the API's and cron's env.ts alike (both
 * deliver): `true` to allow http:// URLs, and hosts on private addresses (local development).
 */
export const webhookPolicyEnv = {
  WEBHOOK_ALLOW_HTTP: z.enum(["true", "false"]).default("false"),
  WEBHOOK_ALLOW_PRIVATE: z.enum(["true", "false"]).default("false"),
};

export const webhookPolicyOf = (env: {
  WEBHOOK_ALLOW_HTTP: string;
  WEBHOOK_ALLOW_PRIVATE: string;
}): WebhookPolicy => ({
  allowHttp: env.WEBHOOK_ALLOW_HTTP === "true",
  allowPrivate: env.WEBHOOK_ALLOW_PRIVATE === "true",
});
