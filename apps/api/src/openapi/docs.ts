import { createReadStream } from "node:fs";
import { fileURLToPath } from "node:url";
import type { RouteSpec } from "@allot/contract/http/route";
import type { FastifyInstance } from "fastify";
import { buildOpenApiDocument } from "./openapi-document";

/**
 * Scalar's browser bundle (3.5 MB), shipped beside its fastify plugin. Streamed from disk on each
 * request: the plugin itself would keep it in memory as a 7 MB string for the life of the process.
 */
const SCALAR_SCRIPT = fileURLToPath(
  new URL("js/standalone.js", import.meta.resolve("@scalar/fastify-api-reference")),
);

/** Scalar's settings: no fonts, telemetry or proxy from elsewhere, so the page makes no request off the server. */
const SCALAR_CONFIGURATION = {
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
    ...Object.fromEntries(
      [
        "c",
        "clojure",
        "csharp",
        "dart",
        "fsharp",
        "go",
        "http",
        "java",
        "js",
        "kotlin",
        "node",
        "objc",
        "ocaml",
        "php",
        "powershell",
        "python",
        "r",
        "ruby",
        "rust",
        "swift",
      ].map((client) => [client, true]),
    ),
    shell: ["httpie", "wget"],
  },
};

// The page Scalar's fastify plugin renders, with its script relative to /api/docs/. The settings
// are constants of ours: nothing in them can close the <script>.
const REFERENCE_PAGE = `<!doctype html>
<html>
  <head>
    <title>Allot API reference</title>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
  </head>
  <body>
    <div id="app"></div>
    <script src="js/scalar.js"></script>
    <script>
      Scalar.createApiReference("#app", ${JSON.stringify(SCALAR_CONFIGURATION)});
    </script>
  </body>
</html>
`;

/** `GET /api/v1/openapi.json` and the reference page at `/api/docs` (Scalar, its script served from here). */
export function registerDocs(app: FastifyInstance, routes: RouteSpec[], publicBaseUrl: string) {
  const document = buildOpenApiDocument(routes, publicBaseUrl);
  app.get("/api/v1/openapi.json", async () => document);
  // The page's script is relative: the page lives at /api/docs/.
  app.get("/api/docs", (_request, reply) => reply.redirect("/api/docs/", 301));
  app.get("/api/docs/", (_request, reply) => reply.type("text/html; charset=utf-8").send(REFERENCE_PAGE));
  app.get("/api/docs/js/scalar.js", (_request, reply) =>
    reply.type("application/javascript; charset=utf-8").send(createReadStream(SCALAR_SCRIPT)),
  );
}
