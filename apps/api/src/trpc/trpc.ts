import type { RouteSpec } from "@allot/contract/http/route";
import { Forbidden, Unauthenticated } from "@allot/domain/shared/errors";
import { initTRPC } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { z } from "zod";
import { toErrorResponse } from "../http/error-response";
import type { Context } from "./context";

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

function checkAccess(access: RouteSpec["access"], ctx: Context) {
  if (access === "public") return;
  const actor = ctx.actor;
  if (!actor) throw new Unauthenticated();
  if (access === "user") return;
  if (actor.credential !== "session") {
    throw new Forbidden(
      "This endpoint needs an interactive login; API keys are not accepted.",
      "interactive_login_required",
    );
  }
  if (access === "staff" && !actor.isStaff) throw new Forbidden("Only staff users may use this endpoint.");
}

/** Told of a request refused with 400, its input as sent (it may not have passed validation). */
type OnInvalid = (ctx: Context, rawInput: unknown, body: Record<string, unknown>) => Promise<void>;

/**
 * A procedure for one contract route: OpenAPI meta, access check, input and output validation.
 * The handler gets the actor already narrowed for non-public routes. `onInvalid` runs after a 400,
 * whether the contract or the use case refused the input; its own failure is not the caller's.
 */
export function procedureFor<I extends z.ZodType, O extends z.ZodType>(
  route: RouteSpec<I, O>,
  options: { onInvalid?: OnInvalid } = {},
) {
  const hasBody = route.method !== "GET" && route.method !== "DELETE";
  return t.procedure
    .meta({
      openapi: {
        method: route.method,
        path: route.path as `/${string}`,
        summary: route.summary,
        tags: route.tags,
        protect: route.access !== "public",
        ...(hasBody ? { contentTypes: BODY_CONTENT_TYPES } : {}),
      },
    })
    .use(async ({ ctx, next, getRawInput }) => {
      checkAccess(route.access, ctx);
      const result = await next();
      if (!result.ok && options.onInvalid) {
        const response = toErrorResponse(result.error, route);
        if (response.status === 400)
          await options.onInvalid(ctx, await getRawInput(), response.body).catch(() => undefined);
      }
      return result;
    })
    .input(route.input)
    .output(route.output);
}

/** The actor of a route that is not public (checkAccess has already refused anonymous callers). */
export function actorOf(ctx: Context) {
  if (!ctx.actor) throw new Unauthenticated();
  return ctx.actor;
}
