import type { Attachments } from "../attachments/transaction-files";
import type { AccessTokens } from "../auth/access-tokens";
import type { SecretVault } from "../secrets/secret-vault";
import type { WebhookPolicy } from "../webhooks/address-policy";

/**
 * What use cases are given beyond the database and the request: the process's services and
 * settings, built once when it starts (the API in buildApp), carried by every context as
 * `ctx.services`. A use case names the ones it reads, `UseCaseContext<"vault" | "publicBaseUrl">`,
 * and sees no other (docs/decisions/0068-one-services-member.md).
 */
export interface UseCaseServices {
  /** PUBLIC_BASE_URL: the server's own address, in avatars, emailed links and receipt downloads. */
  publicBaseUrl: string;
  /** Seals what is kept secret at rest: webhook secrets, the emailed links of queued emails. */
  vault: SecretVault;
  /** Where webhooks may be sent (WEBHOOK_ALLOW_HTTP, WEBHOOK_ALLOW_PRIVATE). */
  webhookPolicy: WebhookPolicy;
  /** Signs and checks access tokens (JWT_SECRET). */
  tokens: AccessTokens;
  /** REFRESH_ROTATION: a refresh replaces the refresh token it was given. */
  refreshRotation: boolean;
  /** Where receipt files are stored, and the largest accepted (ATTACHMENT_MAX_BYTES). */
  attachments: Attachments;
}
