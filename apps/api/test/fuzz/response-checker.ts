import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { LightMyRequestResponse } from "fastify";
import type { FuzzOperation, JsonSchema, OpenApiDocument } from "./openapi-operations";

const DOCUMENT_ID = "https://allot.invalid/openapi.json";

/**
 * Checks an answer against the document: a status it lists for the operation, and a body that
 * validates against that status's schema (OpenAPI 3.1 schemas are JSON Schema 2020-12; nullable is
 * `anyOf [..., {"type": "null"}]` or `type: [..., "null"]`, which Ajv2020 reads as is).
 * Returns what is wrong, or null.
 */
export function createResponseChecker(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  addFormats.default(ajv);
  // References inside the document point at #/components/schemas/…: give them one absolute home.
  ajv.addSchema({
    $id: DOCUMENT_ID,
    $defs: absoluteRefs(withoutSchemaKeyword(document.components?.schemas ?? {}) as JsonSchema),
  });
  const compiled = new Map<JsonSchema, ValidateFunction>();

  const validatorFor = (schema: JsonSchema) => {
    let validate = compiled.get(schema);
    if (!validate) {
      validate = ajv.compile(absoluteRefs(schema));
      compiled.set(schema, validate);
    }
    return validate;
  };

  return (operation: FuzzOperation, response: LightMyRequestResponse): string | null => {
    const status = response.statusCode;
    if (status >= 500) return `server error ${status}`;
    if (!operation.responses.has(status)) return `undocumented status ${status}`;
    const schema = operation.responses.get(status) ?? null;
    if (schema === null) {
      return response.body === ""
        ? null
        : `status ${status} documents no body, got ${response.body.length} bytes`;
    }
    const contentType = String(response.headers["content-type"] ?? "");
    if (!contentType.startsWith("application/json"))
      return `status ${status} with content type '${contentType}'`;
    let body: unknown;
    try {
      body = JSON.parse(response.body);
    } catch {
      return `status ${status} body is not JSON`;
    }
    const validate = validatorFor(schema);
    if (validate(body)) return null;
    const first = validate.errors?.[0];
    return `status ${status} body does not match its schema: ${first?.instancePath || "(root)"} ${first?.message} (${JSON.stringify(first?.params)})`;
  };
}

function absoluteRefs(schema: JsonSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${DOCUMENT_ID}#/$defs/`));
}

/** Component schemas made by zod carry their own `$schema`, which Ajv refuses below the root. */
function withoutSchemaKeyword(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSchemaKeyword);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => key !== "$schema")
        .map(([key, v]) => [key, withoutSchemaKeyword(v)]),
    );
  }
  return value;
}
