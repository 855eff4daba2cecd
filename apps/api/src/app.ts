import { authRoutes } from "@allot/contract/auth/routes";
import type { RouteSpec } from "@allot/contract/http/route";
import { allRoutes } from "@allot/contract/routes";
import { Unauthenticated } from "@allot/domain/shared/errors";
import cookie from "@fastify/cookie";
import { sql } from "drizzle-orm";
import Fastify, {
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from "fastify";
import { type CreateOpenApiFastifyPluginOptions, fastifyTRPCOpenApiPlugin } from "trpc-to-openapi";
import { fenceCredentialsAfterWrites } from "./auth/fence-credentials-after-writes";
import { answerAuthenticateChallenge } from "./http/authenticate-challenge";
import { BODY_LIMIT_BYTES, registerBodyParsers, relabelAsJson } from "./http/body-parsers";
import { closeAfterEarlyRefusals } from "./http/early-refusals";
import { answerFrameworkError, registerErrorBodies } from "./http/error-bodies";
import { toErrorResponse, UNAVAILABLE_RETRY_AFTER_SECONDS } from "./http/error-response";
import { loggableError } from "./http/loggable-error";
import { refuseNulCharacters } from "./http/refuse-nul-characters";
import { answerRequestId, requestIdOf } from "./http/request-id";
import { OneLinePerRequest } from "./http/request-line";
import { requestMetaOf } from "./http/request-meta";
import { createRouteTable, decodePath } from "./http/route-table";
import { registerTransactionFileDownloads } from "./http/transaction-file-downloads";
import { fastifyTrustProxy } from "./http/trust-proxy";
import { refuseUnknownQueryParameters } from "./http/unknown-query-parameters";
import { registerLinkPages } from "./links/register-link-pages";
import { registerDocs } from "./openapi/docs";
import { type AppRouter, appRouter } from "./routers/app-router";
import { bufferedThrottleStore } from "./throttle/buffered-throttle-store";
import { databaseThrottleCounters } from "./throttle/database-throttle-store";
import { authenticateCountingFailures } from "./throttle/failed-authentications";
import { answerRateLimits, reportingTo } from "./throttle/rate-limit-headers";
import { admittedThrottleChecksFor, throttleChecksFor } from "./throttle/throttle-checks";
import type { ThrottleCounters } from "./throttle/throttle-store";
import { type AppServices, type Context, useCaseServicesOf } from "./trpc/context";

const API_BASE = "/api";
const API_WILDCARD = `${API_BASE}/*`;
const TOKEN_ROUTES = new Set<RouteSpec>([authRoutes.login, authRoutes.refresh, authRoutes.logout]);

/** The whole HTTP service over the given database and configuration (tests build it the same way). */
export async function buildApp(
  services: AppServices,
  options: {
    logger?: FastifyServerOptions["logger"];
    /** The process's logger (main.ts: createLogger); instead of `logger`. */
    loggerInstance?: FastifyBaseLogger;
    /** Where throttle counters live: the database unless given (Redis with REDIS_URL, main.ts). */
    throttleCounters?: ThrottleCounters;
  } = {},
) {
  const app = Fastify({
    ...(options.loggerInstance
      ? { loggerInstance: options.loggerInstance }
      : { logger: options.logger ?? false }),
    // One line a request, on its answer, instead of fastify's two.
    logController: new OneLinePerRequest(),
    bodyLimit: BODY_LIMIT_BYTES,
    // TRUST_PROXY: request.ip (per-IP throttles, logs) from X-Forwarded-For of these peers only.
    trustProxy: fastifyTrustProxy(services.config.trustProxy),
    frameworkErrors: answerFrameworkError,
    requestIdHeader: false,
    genReqId: requestIdOf,
  });
  answerRequestId(app);
  closeAfterEarlyRefusals(app);
  // Only the token endpoints read a cookie (refreshTokenOf): no request parses one otherwise.
  await app.register(cookie, { hook: false });
  await registerBodyParsers(app);
  registerErrorBodies(app);
  // After the error bodies' hook, which sets the final status of a procedure's error.
  answerAuthenticateChallenge(app);
  answerRateLimits(app);

  const matchRoute = createRouteTable(allRoutes, API_BASE);
  const throttleStore = bufferedThrottleStore(
    options.throttleCounters ?? databaseThrottleCounters(services.db),
  );
  app.addHook("onClose", () => throttleStore.close());

  // Route match (404/405), then the caller (401): both before the body is read.
  app.addHook("onRequest", async (request, reply) => {
    if (request.routeOptions.url !== API_WILDCARD && !request.routeOptions.config?.contractRoute) return;
    const [rawPath = "", query] = request.url.split(/\?(.*)/s);
    const pathname = decodePath(rawPath);
    const match = matchRoute(request.method, pathname);
    if (!match) {
      return reply.code(404).send({ detail: "Not found.", code: "not_found" });
    }
    if ("allowed" in match) {
      return reply
        .code(405)
        .header("allow", match.allowed.join(", "))
        .send({ detail: `Method "${request.method}" not allowed.`, code: "method_not_allowed" });
    }
    const counters = reportingTo(request, throttleStore);
    request.allot = { route: match.route, actor: null, url: request.url, counters };
    request.raw.url = query === undefined ? pathname : `${pathname}?${query}`;
    // The token endpoints work from the body or the cookie: a stale access token sent along (the
    // usual case when refreshing) must not turn them into a 401.
    // A failed authentication counts against the anonymous bucket (429 before lookup once used up).
    if (!TOKEN_ROUTES.has(match.route))
      request.allot.actor = await authenticateCountingFailures(request, services, counters);
    // An anonymous caller of a protected route is refused here, before its body is read (and is
    // still counted against its address, as any anonymous request).
    if (!request.allot.actor && match.route.access !== "public") {
      await counters.consume(throttleChecksFor(request, match.route, services.config));
      throw new Unauthenticated();
    }
  });

  // Throttling, once the body is parsed (password-reset requests are also counted per address).
  app.addHook("preHandler", async (request) => {
    if (!request.allot) return;
    const { route, counters } = request.allot;
    await counters.consume(throttleChecksFor(request, route, services.config));
    const ceilings = admittedThrottleChecksFor(request, route, services.config);
    if (ceilings.length > 0) await counters.consume(ceilings);
  });
  relabelAsJson(app);
  refuseUnknownQueryParameters(app, allRoutes);
  refuseNulCharacters(app);
  fenceCredentialsAfterWrites(app, services.db);

  // Once, here: every request's context carries this one object (no work per request).
  const useCaseServices = useCaseServicesOf(services);
  const trpcOptions: CreateOpenApiFastifyPluginOptions<AppRouter> = {
    basePath: API_BASE,
    router: appRouter,
    createContext: ({ req, res }): Context => {
      const request = req as unknown as FastifyRequest;
      const allot = request.allot as NonNullable<FastifyRequest["allot"]>;
      return {
        db: services.db,
        services: useCaseServices,
        config: services.config,
        http: { request, reply: res as unknown as FastifyReply },
        request: requestMetaOf(request),
        now: new Date(),
        actor: allot.actor,
        route: allot.route,
        throttleStore: allot.counters,
      };
    },
    responseMeta: ({ ctx, errors }) => (errors.length === 0 && ctx ? { status: ctx.route.status } : {}),
    onError: ({ error, ctx }) => {
      if (toErrorResponse(error, ctx?.route).status >= 500)
        (ctx?.http.request.log ?? app.log).error({ err: loggableError(error) }, "procedure failed");
    },
  };
  await app.register(fastifyTRPCOpenApiPlugin, trpcOptions);
  registerTransactionFileDownloads(app, API_BASE, services.db, useCaseServices);

  app.get("/healthz", async (_request, reply) => {
    try {
      await services.db.execute(sql`select 1`);
      return { status: "ok" };
    } catch {
      return reply
        .code(503)
        .header("retry-after", String(UNAVAILABLE_RETRY_AFTER_SECONDS))
        .send({ status: "unavailable" });
    }
  });

  await registerDocs(app, allRoutes, services.config.publicBaseUrl);
  // The /links/… pages (emailed links, first run): outside /api, so the route table above never sees them.
  await registerLinkPages(app, services);
  return app;
}
