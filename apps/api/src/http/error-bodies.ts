import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type ErrorResponse, toErrorResponse } from "./error-response";
import { loggableError } from "./loggable-error";

/**
 * Errors reach the client in the spec's shapes whichever layer raised them: fastify's own (bad
 * JSON, content type, size), our hooks (auth, throttle, 404/405), and tRPC procedures, whose
 * body carries the shaped response under `allot` (see trpc.ts) for the onSend hook to unwrap.
 */
export function registerErrorBodies(app: FastifyInstance) {
  app.setErrorHandler((error, request, reply) => {
    const response = toErrorResponse(error, request.allot?.route);
    if (response.status >= 500) request.log.error({ err: loggableError(error) }, "unhandled error");
    return sendError(reply, response);
  });

  app.setNotFoundHandler((_request, reply) =>
    sendError(reply, { status: 404, body: { detail: "Not found.", code: "not_found" } }),
  );

  app.addHook("onSend", (request, reply, payload, done) => {
    if (reply.statusCode < 400 || typeof payload !== "string" || !payload.includes('"allot"'))
      return done(null, payload);
    const shaped = (JSON.parse(payload) as { allot?: ErrorResponse }).allot;
    if (!shaped) return done(null, payload);
    // The shaped body only: tRPC's payload around it repeats the error's message and stack.
    if (shaped.status >= 500) request.log.error({ body: shaped.body }, "procedure failed");
    reply.code(shaped.status);
    for (const [name, value] of Object.entries(shaped.headers ?? {})) reply.header(name, value);
    done(null, JSON.stringify(shaped.body));
  });
}

/**
 * Fastify's `frameworkErrors`: a URL its router cannot decode (`%zz`, a lone `%`) is answered before
 * any hook runs, so without this it bypasses the shapes above and echoes the whole path back.
 */
export function answerFrameworkError(_error: Error, _request: FastifyRequest, reply: FastifyReply) {
  return sendError(reply, { status: 400, body: { detail: "Malformed URL.", code: "bad_url" } });
}

function sendError(reply: FastifyReply, response: ErrorResponse) {
  for (const [name, value] of Object.entries(response.headers ?? {})) reply.header(name, value);
  return reply.code(response.status).type("application/json").send(response.body);
}
