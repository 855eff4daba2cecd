import type { RouteSpec } from "@allot/contract/http/route";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { buildOpenApiDocument } from "./openapi-document";

/** `GET /api/v1/openapi.json` and the browsable reference at `/api/docs` (assets served locally). */
export async function registerDocs(app: FastifyInstance, routes: RouteSpec[]) {
  const document = buildOpenApiDocument(routes);
  app.get("/api/v1/openapi.json", async () => document);
  await app.register(swagger, { mode: "static", specification: { document: document as never } });
  await app.register(swaggerUi, { routePrefix: "/api/docs" });
}
