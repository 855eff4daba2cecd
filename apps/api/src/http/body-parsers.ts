import type { Readable } from "node:stream";
import type { BodyBounds } from "@allot/contract/http/route";
import formbody from "@fastify/formbody";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { type MultipartBounds, readMultipartBody } from "./multipart-body";

/** The default bound of every request body, in bytes; a route may raise it (`RouteSpec.body`). */
export const BODY_LIMIT_BYTES = 5 * 1024 * 1024;

/** The body bounds of a request: its contract route's, over the defaults (link pages: the defaults). */
const bodyBoundsFor = (request: FastifyRequest): MultipartBounds => {
  const route: BodyBounds = request.allot?.route.body ?? {};
  return { maxBytes: route.maxBytes ?? BODY_LIMIT_BYTES, files: route.files ?? false };
};

class BadJson extends Error {
  readonly statusCode = 400;
  readonly code = "FST_ERR_PARSE_ERROR";
}

const MULTIPART = /^\s*multipart\/form-data\s*(;|$)/i;
const BOUNDARY = /;\s*boundary=("[^"]+"|[^\s;"]+)/i;

/**
 * JSON, form-encoded and multipart bodies all become a plain object on `request.body`;
 * `relabelAsJson` then lets trpc-to-openapi (which only knows JSON) take it as parsed.
 */
export async function registerBodyParsers(app: FastifyInstance) {
  // Only the three encodings the spec names; anything else (text/plain included) is refused.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === "") return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      done(new BadJson(`JSON parse error - ${(error as Error).message}`), undefined);
    }
  });
  await app.register(formbody, { bodyLimit: BODY_LIMIT_BYTES });
  // busboy throws a plain Error (a 500) for a multipart body without a boundary: refuse it first.
  app.addHook("preParsing", (request, _reply, payload, done) => {
    const type = request.headers["content-type"] ?? "";
    if (MULTIPART.test(type) && !BOUNDARY.test(type))
      return done(new BadJson("Malformed multipart body: the content type names no boundary."));
    done(null, payload);
  });
  // Read as a stream under the route's bounds: refused with 413 as soon as it is over any of them.
  app.addContentTypeParser("multipart/form-data", (request: FastifyRequest, payload: Readable) =>
    readMultipartBody(request, payload, bodyBoundsFor(request)),
  );
}

export function relabelAsJson(app: FastifyInstance) {
  app.addHook("preHandler", (request, _reply, done) => {
    if (request.method !== "GET" && request.method !== "HEAD" && request.method !== "DELETE") {
      request.headers["content-type"] = "application/json";
      if (request.body === undefined || request.body === null) request.body = {};
    }
    done();
  });
}
