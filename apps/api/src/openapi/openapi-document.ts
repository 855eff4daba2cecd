import { ErrorBodySchema, ValidationErrorBodySchema } from "@allot/contract/http/errors";
import { DEFAULT_PAGE_SIZE } from "@allot/contract/http/fields";
import {
  type Access,
  type RefreshCookieUse,
  type RouteSpec,
  takesIdempotencyKey,
} from "@allot/contract/http/route";
import { API_TAGS } from "@allot/contract/tags";
import { generateOpenApiDocument, type OpenAPIObject } from "trpc-to-openapi";
import { z } from "zod";
import { BODY_LIMIT_BYTES } from "../http/body-parsers";

import { appRouter } from "../routers/app-router";
import { addActivityEventUnion } from "./activity-event-schema";
import { referenceGuide, withSdkSamples } from "./reference-guide";

const errorRef = { $ref: "#/components/schemas/Error" };
const validationRef = { $ref: "#/components/schemas/ValidationError" };
const json = (schema: object) => ({ "application/json": { schema } });

const BAD_REQUEST =
  "Invalid input (field errors, a query parameter the operation does not take keyed by its name), or a request that cannot be read: malformed JSON or URL, an unsupported content type";
/** What a route's own 409 and 410 mean (a route lists them in `errors`). */
const CONFLICT = "Conflicts with the state of another object";
const GONE =
  "The cursor is older than the kept deletions (code `cursor_expired`): sync again without `since`";

/** docs/spec/extensions.md §1, on every authenticated write. */
const IDEMPOTENCY_KEY_PARAMETER = {
  name: "Idempotency-Key",
  in: "header" as const,
  required: false,
  description:
    "Makes the write safe to retry: a repeat with the same key and request within 24 hours answers the recorded status and body (with `Idempotent-Replayed: true`) and runs nothing. 1–255 printable ASCII characters, e.g. a UUID; keys are the user's own.",
  schema: { type: "string" as const, minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7E]+$" },
};

const IN_PROGRESS =
  "A request with the same Idempotency-Key is still running (code `idempotency_key_in_progress`; see Retry-After)";
const KEY_REUSED = "The Idempotency-Key was used for another request (code `idempotency_key_reused`)";

/** The refresh token's cookie (apps/api/src/auth/refresh-cookie.ts), only ever sent to `/api/token/`. */
const REFRESH_COOKIE_PARAMETER = {
  name: "refresh_token",
  in: "cookie" as const,
  required: false,
  description:
    "The refresh token, set by `POST /api/token/` (HttpOnly, Secure, SameSite=Strict, Path=/api/token); a browser sends it by itself.",
  schema: { type: "string" as const },
};
const setCookie = (description: string) => ({ description, schema: { type: "string" } });
/** The success response's Set-Cookie, by what the route sets (its `refreshCookie`). */
const SET_COOKIE: Record<NonNullable<RefreshCookieUse["sets"]>, ReturnType<typeof setCookie>> = {
  issued: setCookie(
    "`refresh_token=<token>; Path=/api/token; Expires=…; Max-Age=…; HttpOnly; Secure; SameSite=Strict`: the session's refresh token, for 14 days (a sliding window).",
  ),
  rotated: setCookie(
    "The rotated refresh cookie (as set by `POST /api/token/`), when rotation is on; its 14-day window starts again. A refused cookie is expired (401).",
  ),
  cleared: setCookie(
    "`refresh_token=; Path=/api/token; Expires=Thu, 01 Jan 1970 00:00:00 GMT`: the cookie expired.",
  ),
};

const FORBIDDEN =
  "Not permitted: an interactive login (or staff) is required, or the object may be seen but not changed (a global category, the Unallocated budget)";

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** The headers answers carry (decision 0040 for the rate limits; RFC 9110 for the others). */
const HEADERS = {
  "RateLimit-Policy": {
    description:
      'The quotas the request was counted against (draft-ietf-httpapi-ratelimit-headers): a list of `"<name>";q=<requests>;w=<window seconds>`, one item per counter, e.g. `"user-minute";q=1000;w=60, "user-hour";q=20000;w=3600`.',
    schema: { type: "string" },
  },
  RateLimit: {
    description:
      'What is left of each quota of RateLimit-Policy: `"<name>";r=<requests remaining>;t=<seconds until the window resets>`. On a 429 the refusing quota has r=0 and its t is the Retry-After.',
    schema: { type: "string" },
  },
  "Retry-After": {
    description: "Seconds to wait before trying again.",
    required: true,
    schema: { type: "integer", minimum: 1, examples: [30] },
  },
  "Retry-After-In-Progress": {
    description:
      "`Retry-After`, sent when the 409 is `idempotency_key_in_progress`: seconds to wait before repeating the request with the same Idempotency-Key.",
    schema: { type: "integer", minimum: 1, examples: [1] },
  },
  "X-Request-Id": {
    description: "The request's id (the one sent, when it was a safe value), as in the logs.",
    schema: { type: "string" },
  },
  "WWW-Authenticate": {
    description:
      'The accepted schemes, `Bearer realm="allot", Api-Key realm="allot"`; the scheme whose credential was refused carries `error="invalid_token"` (or `invalid_request` for a malformed header), RFC 6750 §3.',
    required: true,
    schema: { type: "string" },
  },
} as NonNullable<NonNullable<OpenAPIObject["components"]>["headers"]>;

/** Headers on every answer of a throttled operation; a few statuses add their own. */
const COMMON_HEADERS = {
  "X-Request-Id": headerRef("X-Request-Id"),
  "RateLimit-Policy": headerRef("RateLimit-Policy"),
  RateLimit: headerRef("RateLimit"),
};
const STATUS_HEADERS: Record<string, Record<string, unknown>> = {
  401: { "WWW-Authenticate": headerRef("WWW-Authenticate") },
  429: { "Retry-After": headerRef("Retry-After") },
};

// The spec's two error bodies, from the contract's zod schemas (OpenAPI 3.1 is JSON Schema).
const ERROR_SCHEMAS = {
  Error: z.toJSONSchema(ErrorBodySchema, { target: "draft-2020-12" }),
  ValidationError: z.toJSONSchema(ValidationErrorBodySchema, { target: "draft-2020-12" }),
} as NonNullable<NonNullable<OpenAPIObject["components"]>["schemas"]>;

/** Who may call an operation (decision 0019 and trpc.ts's admittedActor): API keys never reach interactive ones. */
const SECURITY: Record<Access, Record<string, string[]>[]> = {
  public: [],
  user: [{ Bearer: [] }, { "Api-Key": [] }],
  interactive: [{ Bearer: [] }],
  staff: [{ Bearer: [] }],
};

/**
 * The OpenAPI 3 document, generated from the same procedures (and so the same zod contract) the
 * server validates with, then corrected where trpc-to-openapi cannot know better: each route's real
 * success status and security, the spec's error bodies, the tags' descriptions.
 */
export function buildOpenApiDocument(routes: RouteSpec[], publicBaseUrl: string): OpenAPIObject {
  const document = generateOpenApiDocument(appRouter, {
    title: "Allot API",
    version: "1.0.0",
    description: referenceGuide(publicBaseUrl),
    baseUrl: "/api",
    securitySchemes: {
      Bearer: {
        type: "http",
        scheme: "bearer",
        bearerFormat: "JWT",
        description:
          "`Authorization: Bearer <access token>`: an interactive login's access token, from `POST /api/token/` or `/api/token/refresh/`; valid for up to 60 minutes.",
      },
      "Api-Key": {
        type: "apiKey",
        in: "header",
        name: "Authorization",
        description:
          "`Authorization: Api-Key <key>`: a key from `POST /api/v1/users/me/api-keys/`, for machine clients.",
      },
    },
  });
  // Self-hosted: whoever runs the server answers for it. The project names no licence (private packages).
  document.info.contact = { name: "The operator of this Allot server" };
  document.info.license = { name: "All rights reserved", identifier: "LicenseRef-Proprietary" };
  document.tags = Object.entries(API_TAGS).map(([name, description]) => ({ name, description }));
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, ...ERROR_SCHEMAS },
    headers: { ...document.components?.headers, ...HEADERS },
  };
  addActivityEventUnion(document);

  for (const route of routes) {
    if (route.download) addDownloadOperation(document, route);
    const operation = findOperation(document, route);
    if (!operation) continue; // http/http-surface.http.test.ts proves every contract route is served
    operation.description = route.description;
    operation.security = SECURITY[route.access];
    operation.parameters = operation.parameters?.map(documentedParameter);
    const success = operation.responses["200"];
    const noBody = route.status === 204 || route.output.def.type === "void";
    const responses: Record<string, unknown> = {
      [route.status]: noBody ? { description: "No content" } : success,
      400: { description: BAD_REQUEST, content: json({ anyOf: [validationRef, errorRef] }) },
      401: { description: "Missing, invalid or expired credentials", content: json(errorRef) },
      429: { description: "Throttled; see Retry-After", content: json(errorRef) },
    };
    if (route.access !== "public" && (route.access !== "user" || route.method !== "GET")) {
      responses[403] = { description: FORBIDDEN, content: json(errorRef) };
    }
    if (route.path.includes("{") || route.method === "GET") {
      responses[404] = { description: "Not found, or not visible to the caller", content: json(errorRef) };
    }
    // docs/spec/extensions.md §1: every authenticated write takes an Idempotency-Key.
    const keyed = takesIdempotencyKey(route);
    const conflicts = [...(route.errors?.includes(409) ? [CONFLICT] : []), ...(keyed ? [IN_PROGRESS] : [])];
    if (conflicts.length > 0)
      responses[409] = { description: conflicts.join("; or "), content: json(errorRef) };
    if (keyed) {
      responses[422] = { description: KEY_REUSED, content: json(errorRef) };
      operation.parameters = [...(operation.parameters ?? []), IDEMPOTENCY_KEY_PARAMETER];
    }
    if (route.errors?.includes(410)) responses[410] = { description: GONE, content: json(errorRef) };
    if (operation.requestBody) {
      const limit = `${(route.body?.maxBytes ?? BODY_LIMIT_BYTES) / (1024 * 1024)} MiB`;
      responses[413] = { description: `Request body larger than ${limit}`, content: json(errorRef) };
    }
    const cookie = route.refreshCookie;
    if (cookie?.reads) operation.parameters = [...(operation.parameters ?? []), REFRESH_COOKIE_PARAMETER];
    if (cookie?.sets)
      (responses[route.status] as Record<string, unknown>).headers = {
        "Set-Cookie": SET_COOKIE[cookie.sets],
      };
    operation.responses = withHeaders(responses, keyed);
  }
  return withSdkSamples(withoutUnusedSchemas(withSpecPaths(document)), routes, publicBaseUrl);
}

const IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif", "image/heic", "image/heif"];
const binary = { schema: { type: "string", format: "binary" } };
const header = (description: string) => ({ description, schema: { type: "string" } });

/**
 * A download route has no procedure (it answers bytes): its operation is written here, with the
 * id parameter of the JSON GET on the same object, before the common responses.
 */
function addDownloadOperation(document: OpenAPIObject, route: RouteSpec) {
  document.paths ??= {};
  const paths = document.paths;
  const objectPath = route.path.replace(/\/[a-z]+\/$/, "");
  const template = paths[objectPath]?.get as { parameters?: unknown[] } | undefined;
  const types = route.path.endsWith("/image/") ? IMAGE_TYPES : ["application/pdf", ...IMAGE_TYPES];
  paths[route.path.replace(/\/$/, "")] = {
    get: {
      operationId: route.operationId,
      summary: route.summary,
      tags: route.tags,
      description: route.description,
      security: SECURITY[route.access],
      parameters: template?.parameters,
      responses: {
        [route.status]: {
          description: "The file as uploaded, with the type read from its content",
          headers: {
            "Content-Disposition": header('`inline; filename="…"` (and `filename*` for a non-ASCII name)'),
            "Content-Security-Policy": header("`sandbox; default-src 'none'`: the file runs no script"),
            "X-Content-Type-Options": header("`nosniff`"),
            "Cache-Control": header("`private`"),
          },
          content: Object.fromEntries(types.map((type) => [type, binary])),
        },
      },
    } as never,
  };
}

/** What the use cases take for an absent page parameter (zod leaves `default` out of a parsed input's schema). */
const PAGE_DEFAULTS: Record<string, number> = { page: 1, page_size: DEFAULT_PAGE_SIZE };

/**
 * A parameter with its description and default. trpc-to-openapi rebuilds an optional query
 * parameter's schema, dropping the meta zod-openapi would take the parameter's description from:
 * it is read from the schema the contract described.
 */
function documentedParameter(parameter: unknown) {
  const { schema, ...rest } = parameter as {
    name: string;
    description?: string;
    schema?: { description?: string };
  };
  const fallback = PAGE_DEFAULTS[rest.name];
  const defaulted = fallback === undefined ? schema : { ...schema, default: fallback };
  if (rest.description || !defaulted?.description) return { ...rest, schema: defaulted };
  const { description, ...unDescribed } = defaulted;
  return { ...rest, description, schema: unDescribed };
}

/** Every answer of an operation is counted (decision 0040): each response lists its headers. */
function withHeaders(responses: Record<string, unknown>, keyed: boolean): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => {
      // A keyed write's 409 (another request with its key still running) says when to retry.
      const retry = keyed && status === "409" ? { "Retry-After": headerRef("Retry-After-In-Progress") } : {};
      const own = (response as { headers?: Record<string, unknown> }).headers;
      const headers = { ...own, ...COMMON_HEADERS, ...STATUS_HEADERS[status], ...retry };
      return [status, { ...(response as object), headers }];
    }),
  );
}

/** The spec writes every path with its trailing slash; trpc-to-openapi drops it. */
function withSpecPaths(document: OpenAPIObject): OpenAPIObject {
  const paths = Object.fromEntries(
    Object.entries(document.paths ?? {}).map(([path, item]) => [
      path.endsWith("/") ? path : `${path}/`,
      item,
    ]),
  );
  return { ...document, paths };
}

/** trpc-to-openapi adds error schemas of its own that no response uses (ours are Error and ValidationError). */
function withoutUnusedSchemas(document: OpenAPIObject): OpenAPIObject {
  const schemas = document.components?.schemas ?? {};
  const text = JSON.stringify({ ...document, components: { ...document.components, schemas: {} } });
  const used = new Set<string>();
  // A used schema's own references count too: follow them until nothing new is found.
  let pending = [...text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1] as string);
  while (pending.length > 0) {
    const next = pending.filter((name) => !used.has(name));
    for (const name of next) used.add(name);
    pending = next.flatMap((name) =>
      [...JSON.stringify(schemas[name] ?? {}).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map(
        (m) => m[1] as string,
      ),
    );
  }
  const kept = Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
  return { ...document, components: { ...document.components, schemas: kept } };
}

function findOperation(document: OpenAPIObject, route: RouteSpec) {
  const paths = document.paths ?? {};
  const item = paths[route.path] ?? paths[route.path.replace(/\/$/, "")];
  return item?.[route.method.toLowerCase() as "get"] as
    | {
        responses: Record<string, unknown>;
        description?: string;
        security?: unknown;
        requestBody?: unknown;
        parameters?: unknown[];
      }
    | undefined;
}
