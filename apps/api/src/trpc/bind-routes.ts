import type { RouteSpec } from "@allot/contract/http/route";
import type { TransactionFiles } from "@allot/domain/attachments/transaction-files";
import type { Actor } from "@allot/domain/shared/actor";
import type { Page } from "@allot/domain/shared/pagination";
import type { AnyProcedure } from "@trpc/server";
import type { z } from "zod";
import { toPage } from "../http/page-links";
import type { Context } from "./context";
import { type OnInvalid, procedureFor, publicProcedureFor, router } from "./trpc";

/** What a route's use case is called with: its caller is known, except on a public route. */
type ContextOf<R extends RouteSpec> = R["access"] extends "public" ? Context : Context & { actor: Actor };

/**
 * A route's work: its context (with `Extra`, what its options add) and parsed input in, its answer
 * (as the output schema takes it) out.
 */
type UseCaseOf<R extends RouteSpec, Extra = unknown> = (
  ctx: ContextOf<R> & Extra,
  input: z.output<R["input"]>,
) => Promise<z.input<R["output"]>> | z.input<R["output"]>;

/** A use case with a report of refused input (see procedureFor). */
interface BindingOptions<R extends RouteSpec> {
  run: UseCaseOf<R>;
  files?: never;
  onInvalid?: OnInvalid;
}

/** A use case of a receipt route: its context carries the request's `files`, staged and settled around it. */
interface FilesBinding<R extends RouteSpec> {
  run: UseCaseOf<R, { files: TransactionFiles }>;
  /** The receipt files' transaction, or null when the route only lets files go (see procedureFor). */
  files: (input: z.output<R["input"]>) => string | null;
  onInvalid?: OnInvalid;
}

type Binding<R extends RouteSpec> = UseCaseOf<R> | BindingOptions<R> | FilesBinding<R>;

/** One row per route of an area that answers JSON; a download is served by its own fastify route. */
type Bindings<Area extends Record<string, RouteSpec>> = {
  [Key in keyof Area as z.output<Area[Key]["output"]> extends Uint8Array ? never : Key]: Binding<Area[Key]>;
};

/**
 * An area's tRPC router, built from its table: each contract route bound to its use case, under the
 * route's own key, in the contract's order (trpc-to-openapi takes the first match where paths overlap).
 */
export function bindRoutes<Area extends Record<string, RouteSpec>>(area: Area, bindings: Bindings<Area>) {
  const rows = bindings as Record<string, Binding<RouteSpec> | undefined>;
  const procedures: Record<string, AnyProcedure> = {};
  for (const [key, route] of Object.entries(area)) {
    const binding = rows[key];
    if (route.download) continue;
    if (!binding) throw new Error(`${route.method} ${route.path} (${key}) is bound to no use case`);
    procedures[key] = procedureOf(route, binding);
  }
  return router(procedures);
}

/**
 * A built procedure, before its resolver: typed here by what the rows' use cases are checked
 * against. Only a receipt route's context has `files` (procedureFor adds them), and only its
 * binding's use case (a FilesBinding) reads them.
 */
type Resolver = (options: {
  ctx: Context & { actor: Actor; files: TransactionFiles };
  input: unknown;
}) => unknown;
interface Unresolved {
  query(resolver: Resolver): AnyProcedure;
  mutation(resolver: Resolver): AnyProcedure;
}

function procedureOf(route: RouteSpec, binding: Binding<RouteSpec>): AnyProcedure {
  const { run, ...options } = typeof binding === "function" ? { run: binding } : binding;
  if (route.access === "public" && Object.keys(options).length > 0)
    throw new Error(`${route.path} is public: it takes no files and no onInvalid report`);
  const procedure = (route.access === "public"
    ? publicProcedureFor(route)
    : procedureFor(route, options)) as unknown as Unresolved;
  const resolve: Resolver = ({ ctx, input }) => run(ctx, input);
  return route.method === "GET" ? procedure.query(resolve) : procedure.mutation(resolve);
}

/** A list use case's Page, answered as the spec's page envelope with its links. */
export const paged =
  <C, I, T>(list: (ctx: C, input: I) => Promise<Page<T>>) =>
  async (ctx: C & Pick<Context, "http">, input: I) =>
    toPage(ctx.http.request, await list(ctx, input));
