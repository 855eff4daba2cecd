import { randomUUID } from "node:crypto";
import type { Database, Tx } from "@allot/db/create-database";
import type { Actor } from "./actor";

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

/**
 * What every use case of a signed-in user is called with, as `(ctx, input)`: the database, the
 * caller, the request, and the one instant the whole use case treats as "now".
 */
export interface UseCaseContext {
  db: Database;
  actor: Actor;
  request: RequestMeta;
  now: Date;
}

/** The context of work no signed-in user asks for: public routes (login, emailed links) and jobs. */
export type PublicContext = Omit<UseCaseContext, "actor">;

/** The context of work started outside HTTP (an admin command, a scheduled job), as of now. */
export function internalContext(db: Database, source: Exclude<RequestSource, "api">): PublicContext {
  return { db, request: { id: randomUUID(), ip: null, userAgent: null, source }, now: new Date() };
}

/**
 * The same context for work nested in a running transaction: a transaction is a database whose own
 * `transaction` opens a savepoint, so the nested use case runs unchanged and commits with it.
 */
export const insideTransaction = <C extends PublicContext>(ctx: C, tx: Tx): C => ({
  ...ctx,
  db: tx as unknown as Database,
});
