import type { RouteSpec } from "@allot/contract/http/route";
import type { Database } from "@allot/db/create-database";
import type { AttachmentStore } from "@allot/domain/attachments/attachment-store";
import type { Attachments, TransactionFiles } from "@allot/domain/attachments/transaction-files";
import type { AccessTokens } from "@allot/domain/auth/access-tokens";
import type { SecretVault } from "@allot/domain/secrets/secret-vault";
import type { Actor } from "@allot/domain/shared/actor";
import type { PublicContext } from "@allot/domain/shared/use-case-context";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { ApiConfig } from "../config";
import type { ThrottleStore } from "../throttle/throttle-store";

/** The services the server is built over (tests build it the same way). */
export interface Services {
  db: Database;
  tokens: AccessTokens;
  config: ApiConfig;
  /** Where receipt files live (local disk or an S3-compatible store). */
  attachments: AttachmentStore;
}

/**
 * What every procedure sees: a use-case context (`db`, `request`, `now`; `actor` once narrowed by
 * procedureFor), the services, and the HTTP exchange for what only HTTP has (cookies, page links).
 */
export interface Context extends Services, PublicContext {
  http: { request: FastifyRequest; reply: FastifyReply };
  /** The authenticated caller; null for an anonymous request (only public routes accept it). */
  actor: Actor | null;
  route: RouteSpec;
  /** The throttle counters, for limits counted by outcome (failed logins). */
  throttleStore: ThrottleStore;
  /** A receipt route's files (its binding's `files`, see bind-routes.ts); null elsewhere. */
  files: TransactionFiles | null;
  /** Seals what is kept secret at rest (webhook secrets, recorded answers), from `config.secrets`. */
  vault: SecretVault;
}

/** The receipt files of a route declared with `files`. */
export function filesOf(ctx: Pick<Context, "files" | "route">): TransactionFiles {
  if (!ctx.files) throw new Error(`${ctx.route.path} was not declared with files`);
  return ctx.files;
}

/** What the transaction use cases take for receipt files, from the server's services. */
export const attachmentsOf = ({ attachments, config }: Services): Attachments => ({
  store: attachments,
  maxBytes: config.attachmentMaxBytes,
  publicBaseUrl: config.publicBaseUrl,
});
