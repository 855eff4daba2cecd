import { randomUUID } from "node:crypto";
import type { Database, Tx } from "@allot/db/create-database";
import type { Actor } from "./actor";
import type { UseCaseServices } from "./use-case-services";

/** Who started the work: an HTTP request, an `allot admin …` command, or a scheduled job. */
export type RequestSource = "api" | "cli" | "scheduler";

/** The request a use case serves, for logs and (later) the activity trail. */
export interface RequestMeta {
  /** The X-Request-Id of an HTTP request; a fresh UUID for the CLI and the scheduler. */
  id: string;
  /** The client's address as TRUST_PROXY resolves it; null outside HTTP. */
  ip: string | null;
  userAgent: string | null;
  source: RequestSource;
}

/** The names of the services a use case reads: `UseCaseContext<"vault" | "publicBaseUrl">`. */
type ServiceName = keyof UseCaseServices;

/**
 * What every use case of a signed-in user is called with, as `(ctx, input)`: the database, the
 * caller, the request, the one instant the whole use case treats as "now", and the services it
 * names (`S`), built once per process: a service it did not name is not there for it to read.
 */
export interface UseCaseContext<S extends ServiceName = never> {
  db: Database;
  actor: Actor;
  request: RequestMeta;
  now: Date;
  services: Pick<UseCaseServices, S>;
}

/** The context of work no signed-in user asks for: public routes (login, emailed links) and jobs. */
export type PublicContext<S extends ServiceName = never> = Omit<UseCaseContext<S>, "actor">;

/**
 * The context of work started outside HTTP (an admin command, a scheduled job), as of now, with the
 * services its use cases read: none unless given.
 */
export function internalContext(db: Database, source: Exclude<RequestSource, "api">): PublicContext;
export function internalContext<S extends Partial<UseCaseServices>>(
  db: Database,
  source: Exclude<RequestSource, "api">,
  services: S,
): PublicContext & { services: S };
export function internalContext(
  db: Database,
  source: Exclude<RequestSource, "api">,
  services: Partial<UseCaseServices> = {},
): PublicContext {
  return { db, request: { id: randomUUID(), ip: null, userAgent: null, source }, now: new Date(), services };
}

/**
 * The same context for work nested in a running transaction: a transaction is a database whose own
 * `transaction` opens a savepoint, so the nested use case runs unchanged and commits with it.
 */
export const insideTransaction = <C extends PublicContext>(ctx: C, tx: Tx): C => ({
  ...ctx,
  db: tx as unknown as Database,
});
