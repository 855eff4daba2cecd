import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { FastifyInstance } from "fastify";

const REQUEST_ID_HEADER = "x-request-id";

// docs/spec/extensions.md §3: a client's id is kept only when short and plain (1–128 of [A-Za-z0-9._-]),
// so it cannot forge or flood a log line.
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Fastify's `genReqId`: the client's X-Request-Id when valid, else a fresh UUID. */
export function requestIdOf(request: IncomingMessage): string {
  const sent = request.headers[REQUEST_ID_HEADER];
  return typeof sent === "string" && CLIENT_REQUEST_ID.test(sent) ? sent : randomUUID();
}

/** Every response names its request, errors and framework refusals included. */
export function answerRequestId(app: FastifyInstance) {
  // Callback-style (as every hook here that never waits): no promise per request.
  app.addHook("onRequest", (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
}
