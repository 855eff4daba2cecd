import type { RouteSpec } from "@allot/contract/http/route";
import { routes } from "@allot/contract/routes";
import type { OpenAPIObject } from "trpc-to-openapi";

/*
 * What the OpenAPI document and its reference page (/api/docs) say besides the operations: a
 * getting-started guide, how authentication works and the conventions (`info.description`), and
 * beside the curl sample the page generates, each operation's call through `@allot/sdk`.
 */

/** The document's description: what the API is, how to start, how to authenticate, its conventions. */
export const referenceGuide = (baseUrl: string) =>
  `
Allot is a self-hosted budgeting service: bank accounts shared by co-owners, money divided among
budgets, transactions split across budgets and categories, and a funding engine that fills budgets
on a schedule. Every path below is under \`${baseUrl}/api\`; bodies are JSON (forms and multipart
are taken too). Every amount is a decimal string (\`"12.50"\`: up to 12 integer digits and 2
fraction digits), never a number, with a sibling \`<field>_currency\` (ISO 4217): always the bank
account's currency, which a request may leave out. Ids are UUIDs, dates \`YYYY-MM-DD\`, timestamps
ISO 8601 date-times.

## Getting started

1. **A user.** A new server prints a one-time setup link that creates the first user; later users
   are invited, or made with \`allot admin create-user\`.
2. **Log in** for an access token (valid an hour) and a refresh cookie:

   \`\`\`sh
   curl -s -c cookies -X POST ${baseUrl}/api/token/ \\
     -H 'content-type: application/json' \\
     -d '{"email":"me@example.com","password":"a long passphrase"}'
   \`\`\`

3. **Make an API key** for scripts and importers (shown once):

   \`\`\`sh
   curl -s -X POST ${baseUrl}/api/v1/users/me/api-keys/ \\
     -H "authorization: Bearer $ACCESS" -H 'content-type: application/json' -d '{"name":"importer"}'
   \`\`\`

4. **Call the API** with it, or use the typed SDK or the \`allot\` command line:

   \`\`\`ts
   import { createClient } from "@allot/sdk";

   const allot = createClient({ baseUrl: "${baseUrl}", auth: { apiKey: process.env.ALLOT_API_KEY } });
   for await (const account of allot.paginate(allot.bankAccounts.list, {})) console.log(account.name, account.posted_balance);
   \`\`\`

## Authentication

Two credentials, sent in \`Authorization\`:

- **\`Bearer <access token>\`**, from a password login (\`POST /api/token/\`). It lives an hour;
  \`POST /api/token/refresh/\` with the \`refresh_token\` cookie (HttpOnly, sent only to \`/api/token\`)
  answers a new one and rotates the cookie. \`POST /api/token/logout/\` ends the session on every server.
- **\`Api-Key <key>\`**, made at \`POST /api/v1/users/me/api-keys/\`: for machines. It can do what
  its user can, except the operations marked *interactive login only* (managing keys, passwords and
  the login email), which answer 403 to a key.

A missing or refused credential is 401 with \`WWW-Authenticate\` naming both schemes. Another
user's object is 404, never 403: its existence is not revealed.

## Conventions

- **Errors**: \`{"detail": "…", "code": "…"}\`, or for invalid input a map of field names to
  messages (\`{"amount": ["A valid number is required."]}\`). A body over the limit is 413.
- **Pages**: \`?page=\` and \`?page_size=\` (100 by default, at most 500); answers carry \`count\`, \`next\` and \`previous\`.
- **Query parameters**: only those an operation lists are taken (on a paged list, \`page\`,
  \`page_size\` and \`ordering\` always); any other, on any method, is a 400 keyed by its name, so
  a misspelt filter is never answered as if it had filtered. Writes take their fields in the body.
- **Safe retries**: send \`Idempotency-Key: <uuid>\` on a write; a repeat within 24 hours answers
  the recorded result with \`Idempotent-Replayed: true\` and changes nothing.
- **Request ids**: every answer carries \`X-Request-Id\`, as the server's logs do.
- **Rate limits**: every answer carries \`RateLimit-Policy\` and \`RateLimit\`; a 429 says when to
  come back in \`Retry-After\`. The SDK waits and retries by itself.
- **Keeping a copy in sync**: \`GET /v1/bank-accounts/{id}/changes/?since=<cursor>\` lists every
  change, deletions included; signed webhooks push them.
`.trim();

const SDK_IMPORT = 'import { createClient } from "@allot/sdk";';

/** `allot.<area>.<key>` of each route: the SDK names its methods by the contract's keys. */
const sdkMethods = new Map<RouteSpec, string>(
  Object.entries(routes).flatMap(([area, areaRoutes]) =>
    Object.entries(areaRoutes as Record<string, RouteSpec>).map(
      ([key, route]) => [route, `${area}.${key}`] as const,
    ),
  ),
);

/** The SDK call of one operation: its client, credential and input (the path's ids, the body's examples). */
function sdkSample(route: RouteSpec, body: Record<string, unknown>, baseUrl: string): string {
  const client =
    route.access === "public"
      ? `const allot = createClient({ baseUrl: "${baseUrl}" });`
      : route.access === "user"
        ? `const allot = createClient({ baseUrl: "${baseUrl}", auth: { apiKey: process.env.ALLOT_API_KEY } });`
        : `const allot = createClient({ baseUrl: "${baseUrl}" });\nawait allot.auth.login({ email, password }); // an API key is refused here`;
  const ids = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name as string, `<${name}>`]);
  const call = route.download
    ? `transactions.download("<id>", "${route.path.includes("/image/") ? "image" : "document"}")`
    : `${sdkMethods.get(route)}(${
        ids.length + Object.keys(body).length > 0
          ? JSON.stringify({ ...Object.fromEntries(ids), ...body }, null, 2)
          : ""
      })`;
  return `${SDK_IMPORT}\n\n${client}\nconst answer = await allot.${call};`;
}

interface BodySchema {
  properties?: Record<string, { example?: unknown }>;
  required?: string[];
}
type Operation = {
  requestBody?: { content?: Record<string, { schema?: BodySchema }> };
} & Record<string, unknown>;

/** A request body of the fields' own examples: the required ones (every one, where none is required). */
function bodyExample(schema: BodySchema | undefined): Record<string, unknown> {
  const fields = Object.entries(schema?.properties ?? {}).filter(([, field]) => field.example !== undefined);
  const required = new Set(schema?.required ?? []);
  const chosen = required.size > 0 ? fields.filter(([name]) => required.has(name)) : fields;
  return Object.fromEntries(chosen.map(([name, field]) => [name, field.example]));
}

/** The document with the SDK call of every operation beside Scalar's generated curl (`x-codeSamples`). */
export function withSdkSamples(
  document: OpenAPIObject,
  routeSpecs: RouteSpec[],
  baseUrl: string,
): OpenAPIObject {
  for (const route of routeSpecs) {
    const operation = (document.paths as Record<string, Record<string, Operation>> | undefined)?.[
      route.path
    ]?.[route.method.toLowerCase()];
    if (!operation) continue;
    const body = bodyExample(operation.requestBody?.content?.["application/json"]?.schema);
    operation["x-codeSamples"] = [
      { lang: "typescript", label: "SDK", source: sdkSample(route, body, baseUrl) },
    ];
  }
  return document;
}
