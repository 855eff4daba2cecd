import type { RouteSpec } from "@allot/contract/http/route";
import { allRoutes } from "@allot/contract/routes";
import { API_TAGS } from "@allot/contract/tags";
import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../test/testing/test-app";

interface Operation {
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; description?: string; schema?: unknown }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}

type Schema = { properties?: Record<string, Schema>; description?: string } & Record<string, unknown>;

const EITHER = [{ Bearer: [] }, { "Api-Key": [] }];
const BEARER_ONLY = [{ Bearer: [] }];

/** A property is described by its own description, or by the component it is a reference to. */
const isDescribed = (property: Schema) => Boolean(property.description ?? property.$ref);

const label = (route: RouteSpec) => `${route.method} ${route.path}`;

/** Every property of every object schema in `schema`, at any depth, with where it was found. */
function properties(schema: unknown, where: string): [string, Schema][] {
  if (Array.isArray(schema)) return schema.flatMap((item, i) => properties(item, `${where}[${i}]`));
  if (!schema || typeof schema !== "object") return [];
  const own = Object.entries((schema as Schema).properties ?? {}).map(
    ([name, property]): [string, Schema] => [`${where}.${name}`, property],
  );
  return [...own, ...Object.entries(schema).flatMap(([key, value]) => properties(value, `${where}/${key}`))];
}

// The document does not depend on the database; the API-key calls of the security test do.
describe.each(testEngines())("the OpenAPI document (%s)", (engine) => {
  const t = useTestApp(engine);
  const documentOf = async () => (await t.inject({ url: "/api/v1/openapi.json" })).json();
  const operationOf = (document: { paths: Record<string, Record<string, Operation>> }, route: RouteSpec) =>
    document.paths[route.path]?.[route.method.toLowerCase()] as Operation;

  it("describes every operation and tags it with a described top-level tag, every tag used", async () => {
    const document = await documentOf();
    expect(document.tags).toEqual(
      Object.entries(API_TAGS).map(([name, description]) => ({ name, description })),
    );
    const used = new Set<string>();
    for (const route of allRoutes) {
      const operation = operationOf(document, route);
      expect(operation.description, label(route)).toMatch(/\w{3,}.*\./);
      expect(operation.description).toBe(route.description);
      expect(operation.tags?.length, label(route)).toBeGreaterThan(0);
      for (const tag of operation.tags ?? []) {
        expect(Object.keys(API_TAGS), label(route)).toContain(tag);
        used.add(tag);
      }
    }
    expect([...used].sort()).toEqual(Object.keys(API_TAGS).sort());
  });

  it("states the security of every operation: none when public, Bearer only when API keys are refused", async () => {
    const document = await documentOf();
    expect(document).not.toHaveProperty("security"); // each operation says its own
    const expected = { public: [], user: EITHER, interactive: BEARER_ONLY, staff: BEARER_ONLY };
    for (const route of allRoutes) {
      expect(operationOf(document, route).security, label(route)).toEqual(expected[route.access]);
    }
    const bearerOnly = allRoutes.filter(
      (route) => route.access === "interactive" || route.access === "staff",
    );
    expect(bearerOnly.map(label)).toHaveLength(17); // 13 interactive-only, 4 staff
    expect(
      allRoutes
        .filter((route) => route.access === "public")
        .map(label)
        .sort(),
    ).toEqual([
      "GET /v1/invitations/{token}/",
      "POST /token/",
      "POST /token/logout/",
      "POST /token/refresh/",
      "POST /v1/invitations/{token}/accept/",
      "POST /v1/invitations/{token}/decline/",
      "POST /v1/password-reset/",
      "POST /v1/password-reset/{token}/confirm/",
      "POST /v1/users/me/change-email/{token}/confirm/",
      "POST /v1/users/me/change-email/{token}/revoke/",
    ]);
  });

  it("is right about API keys: refused on exactly the operations whose security lacks Api-Key", async () => {
    const document = await documentOf();
    const user = await t.user({ staff: true });
    const key = await t.apiKey(user);
    const somewhere = "00000000-0000-4000-8000-000000000000";
    for (const route of allRoutes.filter((candidate) => candidate.access !== "public")) {
      const url = `/api${route.path.replace(/\{\w+\}/g, somewhere)}`;
      // Access is decided before the input is read: an empty body is enough to be admitted or refused.
      const response = await t.inject({
        method: route.method,
        url,
        headers: { authorization: key },
        ...(route.method === "GET" || route.method === "DELETE" ? {} : { payload: {} }),
      });
      const refused = response.statusCode === 403 && response.json().code === "interactive_login_required";
      const acceptsKeys = JSON.stringify(operationOf(document, route).security).includes("Api-Key");
      expect(refused, `${label(route)} answered ${response.statusCode}`).toBe(!acceptsKeys);
    }
  });

  it("describes every parameter and every property of every schema", async () => {
    const document = await documentOf();
    const undescribed: string[] = [];
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      if (!(schema as Schema).description) undescribed.push(`components.schemas.${name}`);
      for (const [where, property] of properties(schema, name))
        if (!isDescribed(property)) undescribed.push(where);
    }
    for (const route of allRoutes) {
      const operation = operationOf(document, route);
      for (const parameter of operation.parameters ?? []) {
        if (!parameter.description) undescribed.push(`${label(route)} parameter ${parameter.name}`);
      }
      const bodies = [
        ...Object.values(operation.requestBody?.content ?? {}),
        ...Object.values(operation.responses).flatMap((response) => Object.values(response.content ?? {})),
      ];
      for (const { schema } of bodies)
        for (const [where, property] of properties(schema, label(route)))
          if (!isDescribed(property)) undescribed.push(where);
    }
    expect([...new Set(undescribed)]).toEqual([]);
  });

  it("marks dates and date-times with their formats and bounds the page parameters", async () => {
    const document = await documentOf();
    const budget = document.components.schemas.Budget.properties;
    expect(budget.created_at.format).toBe("date-time");
    expect(budget.target_date.anyOf ?? [budget.target_date]).toContainEqual(
      expect.objectContaining({ format: "date" }),
    );
    const list = operationOf(document, allRoutes.find((route) => route.path === "/v1/budgets/") as RouteSpec);
    const page = list.parameters?.find((parameter) => parameter.name === "page");
    const size = list.parameters?.find((parameter) => parameter.name === "page_size");
    expect(page?.schema).toMatchObject({ type: "integer", minimum: 1, default: 1 });
    expect(size?.schema).toMatchObject({ type: "integer", minimum: 1, default: 100 });
    expect(size?.description).toMatch(/500/);
  });

  it("lists the transaction list's amount range as signed decimal strings", async () => {
    const document = await documentOf();
    const list = operationOf(
      document,
      allRoutes.find((route) => route.path === "/v1/transactions/") as RouteSpec,
    );
    for (const name of ["amount_min", "amount_max"]) {
      const parameter = list.parameters?.find((candidate) => candidate.name === name);
      expect(parameter?.description, name).toMatch(/signed \(inclusive\)/);
      expect(parameter?.schema, name).toMatchObject({
        type: "string",
        pattern: "^-?\\d{1,12}(\\.\\d{1,2})?$",
      });
    }
  });
});
