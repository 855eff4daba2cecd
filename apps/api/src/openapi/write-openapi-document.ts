import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { allRoutes } from "@allot/contract/routes";
import { buildOpenApiDocument } from "./openapi-document";

/**
 * Writes the OpenAPI document, built from the router without a server, to the path given: the
 * linters of `pnpm lint:openapi` read it from a file.
 */
const [path] = process.argv.slice(2);
if (!path) throw new Error("usage: write-openapi-document.ts <path>");
mkdirSync(dirname(path), { recursive: true });
writeFileSync(path, `${JSON.stringify(buildOpenApiDocument(allRoutes, "http://127.0.0.1:3000"), null, 2)}\n`);
