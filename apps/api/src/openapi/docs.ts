import type { RouteSpec } from "@allot/contract/http/route";
import scalarReference from "@scalar/fastify-api-reference";
import type { FastifyInstance } from "fastify";
import { buildOpenApiDocument } from "./openapi-document";

/**
 * `GET /api/v1/openapi.json` and the reference page at `/api/docs` (Scalar, its script served from
 * here): no fonts, telemetry or proxy from elsewhere, so the page makes no request off the server.
 */
export async function registerDocs(app: FastifyInstance, routes: RouteSpec[], publicBaseUrl: string) {
  const document = buildOpenApiDocument(routes, publicBaseUrl);
  app.get("/api/v1/openapi.json", async () => document);
  await app.register(scalarReference, {
    routePrefix: "/api/docs",
    configuration: {
      url: "/api/v1/openapi.json",
      title: "Allot API reference",
      // No icon to fetch (the browser would ask for /favicon.ico, a 404).
      favicon: "data:,",
      withDefaultFonts: false,
      telemetry: false,
      hideClientButton: true,
      // Scalar's AI agent talks to Scalar's servers.
      agent: { disabled: true },
      // curl beside each operation's own SDK sample (x-codeSamples); the other generated clients are noise.
      defaultHttpClient: { targetKey: "shell", clientKey: "curl" },
      hiddenClients: {
        c: true,
        clojure: true,
        csharp: true,
        dart: true,
        fsharp: true,
        go: true,
        http: true,
        java: true,
        js: true,
        kotlin: true,
        node: true,
        objc: true,
        ocaml: true,
        php: true,
        powershell: true,
        python: true,
        r: true,
        ruby: true,
        rust: true,
        swift: true,
        shell: ["httpie", "wget"],
      },
    },
  });
}
