import { type RouteSpec, takesIdempotencyKey } from "@allot/contract/http/route";
import { TransactionFiles } from "@allot/domain/attachments/transaction-files";
import type { Actor } from "@allot/domain/shared/actor";
import { Forbidden, Unauthenticated } from "@allot/domain/shared/errors";
import { initTRPC } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { z } from "zod";
import { toErrorResponse } from "../http/error-response";
import { answerSchema } from "./answer-schema";
import type { Context } from "./context";
import { idempotently } from "./idempotency";

const t = initTRPC
  .context<Context>()
  .meta<OpenApiMeta>()
  .create({
    // trpc-to-openapi overwrites message/code/issues of this shape; the onSend hook in
    // http/error-bodies.ts swaps in `allot`, the body and status the spec wants.
    errorFormatter: ({ shape, error, ctx }) => ({ ...shape, allot: toErrorResponse(error, ctx?.route) }),
  });

export const router = t.router;

const BODY_CONTENT_TYPES = ["application/json", "application/x-www-form-urlencoded", "multipart/form-data"];

/** The caller a route admits, or the refusal: 401 anonymous, 403 API key or non-staff. */
function admittedActor(access: RouteSpec["access"], actor: Actor | null): Actor {
  if (!actor) throw new Unauthenticated();
  if (access === "user") return actor;
  if (actor.credential !== "session") {
    throw new Forbidden(
      "This endpoint needs an interactive login; API keys are not accepted.",
      "interactive_login_required",
    );
  }
  if (access === "staff" && !actor.isStaff) throw new Forbidden("Only staff users may use this endpoint.");
  return actor;
}

/** Told of a request refused with 400, its input as sent (it may not have passed validation). */
export type OnInvalid = (ctx: Context, rawInput: unknown, body: Record<string, unknown>) => Promise<void>;

/** OpenAPI meta, the `onInvalid` report, then input and output validation, for one route. */
function baseProcedure<I extends z.ZodType, O extends z.ZodType>(
  route: RouteSpec<I, O>,
  options: { onInvalid?: OnInvalid },
) {
  const hasBody = route.method !== "GET" && route.method !== "DELETE";
  const described = t.procedure.meta({
    openapi: {
      method: route.method,
      path: route.path as `/${string}`,
      summary: route.summary,
      tags: route.tags,
      protect: route.access !== "public",
      ...(route.operationId ? { operationId: route.operationId } : {}),
      ...(hasBody ? { contentTypes: BODY_CONTENT_TYPES } : {}),
    },
  });
  const { onInvalid } = options;
  // Only the routes that report a 400 pay for the middleware that watches for one.
  if (!onInvalid) return described;
  return described.use(async ({ ctx, next, getRawInput }) => {
    const result = await next();
    if (!result.ok) {
      const response = toErrorResponse(result.error, route);
      if (response.status === 400)
        await onInvalid(ctx, await getRawInput(), response.body).catch(() => undefined);
    }
    return result;
  });
}

/**
 * The procedure of a route for signed-in callers. The context is narrowed once, here, before the
 * input is read: `ctx.actor` is the admitted caller, so `ctx` is the use case's context as it is.
 * `onInvalid` runs after a 400, whether the contract or the use case refused the input; its own
 * failure is not the caller's.
 */
export function procedureFor<I extends z.ZodType, O extends z.ZodType>(
  route: RouteSpec<I, O>,
  options: {
    onInvalid?: OnInvalid;
    /**
     * The route writes receipt files: the transaction they are for (a new id on create), or null
     * when it only lets files go (a delete). They are staged before, and settled after, the
     * Idempotency-Key's transaction as well as the use case's (see TransactionFiles).
     */
    files?: (input: z.output<I>) => string | null;
  } = {},
) {
  if (route.access === "public") throw new Error(`${route.path} is public: use publicProcedureFor`);
  const admitted = baseProcedure(route, options)
    .use(({ ctx, next }) => next({ ctx: { actor: admittedActor(route.access, ctx.actor) } }))
    .input(route.input);
  const { files: filesFor } = options;
  const parsed = filesFor
    ? admitted.use(async ({ ctx, input, next }) => {
        const files = new TransactionFiles(ctx.db, ctx.services.attachments, ctx.now);
        try {
          const transactionId = filesFor(input as z.output<I>);
          if (transactionId !== null)
            await files.stage(transactionId, input as Parameters<TransactionFiles["stage"]>[1]);
          return await next({ ctx: { files } });
        } finally {
          await files.settle();
        }
      })
    : admitted;
  // Writes take an Idempotency-Key: between the input and the output, so the fingerprint reads the
  // parsed body and the recorded answer is the output as sent.
  const keyed = takesIdempotencyKey(route) ? parsed.use((opts) => idempotently(route, opts)) : parsed;
  return keyed.output(answerSchema(route.output));
}

/** The procedure of a public route: `ctx.actor` is whoever sent a valid credential, else null. */
export function publicProcedureFor<I extends z.ZodType, O extends z.ZodType>(route: RouteSpec<I, O>) {
  if (route.access !== "public") throw new Error(`${route.path} is not public: use procedureFor`);
  return baseProcedure(route, {}).input(route.input).output(answerSchema(route.output));
}
