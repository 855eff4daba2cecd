import type { RouteSpec } from "@allot/contract/http/route";
import { routes } from "@allot/contract/routes";
import { methodName } from "@allot/sdk/resource-names";
import type { OpenAPIObject } from "trpc-to-openapi";

/*
 * What the reference page (/api/docs) shows besides the operations: a getting-started guide and
 * how authentication works (the document's `info.description`), and beside the generated curl
 * sample of each operation, the same call through `@allot/sdk` (`x-codeSamples`).
 */

const guide = (baseUrl: string) => `
Allot is a self-hosted budgeting service: bank accounts shared by co-owners, money divided among
budgets, transactions split across budgets and categories, and a funding engine that fills budgets
on a schedule. Every path below is under \`${baseUrl}/api\`; bodies are JSON (forms and multipart
are taken too), amounts are decimal strings (\`"12.50"\`), never numbers.

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
- **Safe retries**: send \`Idempotency-Key: <uuid>\` on a write; a repeat within 24 hours answers
  the recorded result with \`Idempotent-Replayed: true\` and changes nothing.
- **Rate limits**: every answer carries \`RateLimit-Policy\` and \`RateLimit\`; a 429 says when to
  come back in \`Retry-After\`. The SDK waits and retries by itself.
- **Keeping a copy in sync**: \`GET /v1/bank-accounts/{id}/changes/?since=<cursor>\` lists every
  change, deletions included; signed webhooks push them.
`;

const SDK_IMPORT = 'import { createClient } from "@allot/sdk";';

/** `allot.<area>.<method>` of each route, named as the SDK names it. */
const sdkMethods = new Map<RouteSpec, string>(
  Object.entries(routes).flatMap(([area, exports]) =>
    Object.entries(exports as Record<string, RouteSpec>).map(
      ([exportName, route]) => [route, `${area}.${methodName(exportName, area)}`] as const,
    ),
  ),
);

/** The SDK call of one operation: its client, credential and input, from the path and the body's example. */
function sdkSample(route: RouteSpec, requestExample: unknown, baseUrl: string): string {
  const method = route.download
    ? `transactions.download(id, "${route.path.includes("/image/") ? "image" : "document"}")`
    : sdkMethods.get(route);
  const pathParameters = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name as string);
  const input = {
    ...Object.fromEntries(pathParameters.map((name) => [name, `<${name}>`])),
    ...(typeof requestExample === "object" && requestExample !== null ? requestExample : {}),
  };
  const argument = route.download ? "" : Object.keys(input).length > 0 ? JSON.stringify(input, null, 2) : "";
  const client =
    route.access === "public"
      ? `const allot = createClient({ baseUrl: "${baseUrl}" });`
      : route.access === "user"
        ? `const allot = createClient({ baseUrl: "${baseUrl}", auth: { apiKey: process.env.ALLOT_API_KEY } });`
        : `const allot = createClient({ baseUrl: "${baseUrl}" });\nawait allot.auth.login({ email, password }); // an API key is refused here`;
  const setup = route.download ? `const id = "<id>";\n` : "";
  return `${SDK_IMPORT}\n\n${client}\n${setup}const answer = await allot.${method}(${argument});`;
}

type Operation = { requestBody?: { content?: Record<string, { example?: unknown }> } } & Record<
  string,
  unknown
>;

/** The document as the reference page shows it: the guide as its description, SDK samples on every operation. */
export function withReferenceGuide(
  document: OpenAPIObject,
  routeSpecs: RouteSpec[],
  baseUrl: string,
): OpenAPIObject {
  const paths = structuredClone(document.paths ?? {}) as Record<string, Record<string, Operation>>;
  for (const route of routeSpecs) {
    const operation = paths[route.path]?.[route.method.toLowerCase()];
    if (!operation) continue;
    const example = operation.requestBody?.content?.["application/json"]?.example;
    operation["x-codeSamples"] = [
      { lang: "typescript", label: "SDK", source: sdkSample(route, example, baseUrl) },
    ];
  }
  return {
    ...document,
    info: { ...document.info, description: guide(baseUrl).trim() },
    paths: paths as OpenAPIObject["paths"],
  };
}
