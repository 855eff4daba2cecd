import type { FastifyInstance } from "fastify";

/** A JSON Schema (2020-12, as OpenAPI 3.1 writes it), read loosely. */
export type JsonSchema = { [keyword: string]: unknown };

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, RawOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

interface RawOperation {
  operationId: string;
  security?: unknown[];
  parameters?: { in: string; name: string; required?: boolean; schema: JsonSchema }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
}

interface FuzzParameter {
  name: string;
  schema: JsonSchema;
  required: boolean;
}

/** One operation of the document, in the terms the generator and the checker need. */
export interface FuzzOperation {
  id: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** As the document lists it, below the server's `/api`, e.g. `/v1/budgets/{id}/`. */
  path: string;
  isPublic: boolean;
  pathParameters: FuzzParameter[];
  queryParameters: FuzzParameter[];
  /** The JSON request body schema, when the operation takes a body. */
  body: JsonSchema | null;
  /** Documented statuses: the JSON body schema of each, null for a bodiless one (204). */
  responses: Map<number, JsonSchema | null>;
}

/** The service's own OpenAPI document, fetched the way a client would. */
export async function fetchOpenApiDocument(app: FastifyInstance): Promise<OpenApiDocument> {
  const response = await app.inject({ method: "GET", url: "/api/v1/openapi.json" });
  if (response.statusCode !== 200) throw new Error(`openapi.json: ${response.statusCode} ${response.body}`);
  return response.json() as OpenApiDocument;
}

/** Every operation of the document, in document order. */
export function listOperations(document: OpenApiDocument): FuzzOperation[] {
  const operations: FuzzOperation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      const parameters = raw.parameters ?? [];
      const pick = (where: string) =>
        parameters
          .filter((p) => p.in === where)
          .map((p) => ({ name: p.name, schema: p.schema, required: p.required === true }));
      const responses = new Map<number, JsonSchema | null>();
      for (const [status, response] of Object.entries(raw.responses)) {
        responses.set(Number(status), response.content?.["application/json"]?.schema ?? null);
      }
      operations.push({
        id: raw.operationId,
        method: method.toUpperCase() as FuzzOperation["method"],
        path,
        isPublic: raw.security === undefined || raw.security.length === 0,
        pathParameters: pick("path"),
        queryParameters: pick("query"),
        body: raw.requestBody?.content["application/json"]?.schema ?? null,
        responses,
      });
    }
  }
  return operations;
}

/** Follows a local `#/components/schemas/…` reference (and only that kind the document uses). */
export function resolveSchema(document: OpenApiDocument, schema: JsonSchema): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref !== "string") return schema;
  const name = ref.replace(/^#\/components\/schemas\//, "");
  const target = document.components?.schemas?.[name];
  if (!target) throw new Error(`unresolved schema reference ${ref}`);
  return resolveSchema(document, target);
}
