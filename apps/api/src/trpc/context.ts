import type { RouteSpec } from "@allot/contract/http/route";
import type { Database } from "@allot/db/create-database";
import type { AttachmentStore } from "@allot/domain/attachments/attachment-store";
import type { AccessTokens } from "@allot/domain/auth/access-tokens";
import { secretVault } from "@allot/domain/secrets/secret-vault";
import type { Actor } from "@allot/domain/shared/actor";
import type { PublicContext } from "@allot/domain/shared/use-case-context";
import type { UseCaseServices } from "@allot/domain/shared/use-case-services";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { ApiConfig } from "../config";
import type { ThrottleStore } from "../throttle/throttle-store";

/** What the server is built over (tests build it the same way). */
export interface AppServices {
  db: Database;
  tokens: AccessTokens;
  config: ApiConfig;
  /** Where receipt files live (local disk or an S3-compatible store). */
  attachments: AttachmentStore;
}

/**
 * The use cases' services, from the server's: built once, in buildApp, and carried by every
 * request's context as the same object (docs/decisions/0068-one-services-member.md).
 */
export const useCaseServicesOf = ({ tokens, config, attachments }: AppServices): UseCaseServices => ({
  publicBaseUrl: config.publicBaseUrl,
  vault: secretVault(config.secrets),
  webhookPolicy: config.webhooks,
  tokens,
  refreshRotation: config.refreshRotation,
  attachments: { store: attachments, maxBytes: config.attachmentMaxBytes },
});

/**
 * What every procedure sees: a use-case context with every service (`db`, `request`, `now`,
 * `services`; `actor` once narrowed by procedureFor), the configuration, and the HTTP exchange for
 * what only HTTP has (cookies, page links). A receipt route's context also has its `files`.
 */
export interface Context extends PublicContext<keyof UseCaseServices> {
  http: { request: FastifyRequest; reply: FastifyReply };
  /** The authenticated caller; null for an anonymous request (only public routes accept it). */
  actor: Actor | null;
  route: RouteSpec;
  config: ApiConfig;
  /** The throttle counters, for limits counted by outcome (failed logins). */
  throttleStore: ThrottleStore;
}
