import { randomUUID } from "node:crypto";
import { allRoutes } from "@allot/contract/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { verifyLedger } from "@allot/domain/ledger/verify-ledger";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../testing/test-app";
import { useTestMailbox } from "../testing/test-mailbox";
import { type CellRequest, expectedOutcome, type Outcome, ROUTE_CASES } from "./authorization-expectations";
import { accountFingerprint } from "./ledger-client";
import { filterProbes } from "./list-filters";
import { CREDENTIAL_KINDS, type CredentialKind, makeCredentials } from "./matrix-credentials";
import { buildOwnerWorld, type OwnerWorld, ownerView } from "./owner-world";

/*
 * The authorisation matrix (docs/decisions/0019-authorization-matrix.md): every route of the
 * contract × every kind of caller that is not the owner gets exactly the status the spec gives,
 * with the spec's error body, and is shown nothing of the owner's; afterwards the owner's objects
 * are as they were. Routes come from `allRoutes`, so a new endpoint cannot be left out.
 */

const keyOf = (route: { method: string; path: string }) => `${route.method} ${route.path}`;

describe("the authorisation matrix's route table", () => {
  it("classifies every route of the contract, as the contract does, and nothing else", () => {
    const declared = allRoutes.map(keyOf);
    const missing = declared.filter((key) => !ROUTE_CASES[key]);
    const stale = Object.keys(ROUTE_CASES).filter((key) => !declared.includes(key));
    expect(missing, "routes with no entry in ROUTE_CASES (authorization-expectations.ts)").toEqual([]);
    expect(stale, "entries in ROUTE_CASES for routes the contract no longer has").toEqual([]);
    const reclassified = allRoutes
      .filter((route) => ROUTE_CASES[keyOf(route)]?.access !== route.access)
      .map(
        (route) => `${keyOf(route)}: contract ${route.access}, matrix ${ROUTE_CASES[keyOf(route)]?.access}`,
      );
    expect(reclassified, "access classes that changed: review the entry").toEqual([]);
  });
});

/** What of the reply differs from the outcome, or null when it matches. */
function mismatch(expected: Outcome, status: number, body: unknown): string | null {
  if (status !== expected.status) return `status ${status}, expected ${expected.status}`;
  const fields = body && typeof body === "object" ? (body as Record<string, unknown>) : {};
  if (expected.code !== undefined && fields.code !== expected.code) return `code ${fields.code}`;
  if (expected.code !== undefined && typeof fields.detail !== "string") return "no detail";
  if (expected.detail !== undefined && fields.detail !== expected.detail) return `detail ${fields.detail}`;
  if (expected.fields && JSON.stringify(Object.keys(fields).sort()) !== JSON.stringify(expected.fields))
    return `fields ${Object.keys(fields)}, expected ${expected.fields}`;
  return null;
}

/** The owner's secrets in a reply that the request did not itself name. */
function leaked(world: OwnerWorld, request: CellRequest, body: string): string[] {
  const sent = `${request.path} ${JSON.stringify(request.payload ?? null)}`;
  return world.secrets.filter((secret) => !sent.includes(secret) && body.includes(secret));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The request with every id of the owner's swapped for a fresh one that names nothing, and a way
 * to swap them back in a reply; null when the request names none of the owner's ids.
 */
function twinOf(world: OwnerWorld, request: CellRequest) {
  const swaps = world.secrets.filter((secret) => UUID.test(secret)).map((id) => [id, randomUUID()] as const);
  let path = request.path;
  let payload = JSON.stringify(request.payload ?? null);
  for (const [id, fresh] of swaps) {
    path = path.replaceAll(id, fresh);
    payload = payload.replaceAll(id, fresh);
  }
  if (path === request.path && payload === JSON.stringify(request.payload ?? null)) return null;
  const twin: CellRequest = { ...request, path, payload: JSON.parse(payload) ?? undefined };
  const back = (text: string) => swaps.reduce((result, [id, fresh]) => result.replaceAll(fresh, id), text);
  return { twin, back };
}

const NON_OWNERS: readonly CredentialKind[] = [
  "other_user_key",
  "staff_key",
  "staff_non_owner",
  "other_user_token",
];

describe.each(testEngines())("authorisation matrix (%s)", (engine) => {
  const t = useTestApp(engine);
  const mailbox = useTestMailbox(() => t.db);
  let world: OwnerWorld;
  let credentials: Record<CredentialKind, string | null>;
  let viewBefore: string;
  let fingerprintBefore: string;
  const cells = { matrix: 0, filters: 0, twins: 0, unslashed: 0 };
  let started = 0;

  beforeAll(async () => {
    started = Date.now();
    world = await buildOwnerWorld(t, mailbox);
    const other = await t.user({ name: "Ivan Intruder" });
    const staff = await t.user({ staff: true, name: "Stella Staff" });
    credentials = await makeCredentials(t, world.owner, other, staff);
    viewBefore = await ownerView(world);
    fingerprintBefore = await accountFingerprint(t.db, world.account.id);
  });
  afterAll(() => {
    console.info(
      `authorisation matrix (${engine}): ${allRoutes.length} routes × ${CREDENTIAL_KINDS.length} credential kinds = ${cells.matrix} cells; ${cells.twins} not-yours/no-such twins, ${cells.filters} list-filter probes, ${cells.unslashed} unslashed paths; ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  });

  const send = async (kind: CredentialKind, method: string, request: CellRequest) => {
    const authorization = credentials[kind];
    const response = await t.inject({
      method: method as "GET",
      url: `/api${request.path}`,
      headers: authorization ? { authorization } : {},
      ...(request.refreshCookie ? { cookies: { refresh_token: request.refreshCookie } } : {}),
      ...(request.payload === undefined ? {} : { payload: request.payload as Record<string, unknown> }),
    });
    let body: unknown = null;
    try {
      body = response.body ? JSON.parse(response.body) : null;
    } catch {
      body = response.body;
    }
    return { status: response.statusCode, body, text: response.body };
  };

  it("lists filtered on anything of the owner's show a non-owner nothing", async () => {
    const { probes, unclassified } = filterProbes(allRoutes, world);
    expect(unclassified, "uuid filters with no owner ids in list-filters.ts").toEqual([]);
    const failures: string[] = [];
    for (const kind of NON_OWNERS) {
      for (const { route, parameter, value } of probes) {
        if (kind.endsWith("_key") && route.access !== "user") continue;
        const request = { path: `${route.path}?${parameter}=${encodeURIComponent(value)}&page_size=500` };
        const reply = await send(kind, "GET", request);
        cells.filters += 1;
        const body = reply.body as { count?: number; results?: unknown[] } | unknown[];
        const results = Array.isArray(body) ? body : body?.results;
        if (reply.status !== 200 || !Array.isArray(results) || results.length > 0)
          failures.push(`${request.path} as ${kind}: ${reply.status} ${reply.text.slice(0, 300)}`);
        else if (!Array.isArray(body) && body.count !== 0) failures.push(`${request.path} as ${kind}: count`);
      }
    }
    expect(failures).toEqual([]);
    expect(cells.filters).toBeGreaterThan(20);
  });

  it.each(CREDENTIAL_KINDS)("%s: every route answers what the spec gives and shows nothing", async (kind) => {
    const failures: string[] = [];
    for (const route of allRoutes) {
      const routeCase = ROUTE_CASES[keyOf(route)];
      if (!routeCase) throw new Error(`unclassified route ${keyOf(route)}`);
      const expected = expectedOutcome(routeCase, kind);
      const request = await routeCase.request(world, kind);
      const reply = await send(kind, route.method, request);
      cells.matrix += 1;
      const wrong = mismatch(expected, reply.status, reply.body);
      if (wrong) failures.push(`${keyOf(route)} as ${kind}: ${wrong} — ${reply.text.slice(0, 300)}`);
      // Public and staff routes show what they exist to show to whoever passes (an invitation's
      // account and owners to its emailed secret's holder, users to staff); everything else shows nothing.
      const byDesign =
        (routeCase.access === "public" || routeCase.access === "staff") && expected.status < 400;
      const secrets = byDesign ? [] : leaked(world, request, reply.text);
      if (secrets.length) failures.push(`${keyOf(route)} as ${kind}: shows ${secrets.join(", ")}`);
      // "Not yours" must read exactly as "does not exist": the same request naming ids that exist
      // nowhere gets the same status and body.
      const twin = NON_OWNERS.includes(kind) && expected.status >= 400 ? twinOf(world, request) : null;
      if (twin) {
        const twinReply = await send(kind, route.method, twin.twin);
        cells.twins += 1;
        const answer = `${twinReply.status} ${twin.back(twinReply.text)}`;
        if (answer !== `${reply.status} ${reply.text}`)
          failures.push(
            `${keyOf(route)} as ${kind}: ${reply.status} ${reply.text}, for ids of no one: ${answer}`,
          );
      }
    }
    expect(failures).toEqual([]);
  });

  it("answers an anonymous caller alike without the trailing slash", async () => {
    const failures: string[] = [];
    for (const route of allRoutes) {
      const routeCase = ROUTE_CASES[keyOf(route)] as (typeof ROUTE_CASES)[string];
      const request = await routeCase.request(world, "none");
      const unslashed = { ...request, path: request.path.replace(/\/(\?|$)/, "$1") };
      const reply = await send("none", route.method, unslashed);
      cells.unslashed += 1;
      const wrong = mismatch(expectedOutcome(routeCase, "none"), reply.status, reply.body);
      if (wrong) failures.push(`${route.method} ${unslashed.path}: ${wrong} — ${reply.text.slice(0, 300)}`);
    }
    expect(failures).toEqual([]);
  });

  it("leaves the owner's objects exactly as they were", async () => {
    expect(cells.matrix).toBe(allRoutes.length * CREDENTIAL_KINDS.length);
    expect(await ownerView(world)).toBe(viewBefore);
    expect(await accountFingerprint(t.db, world.account.id)).toBe(fingerprintBefore);
    expect(await verifyLedger(t.db, world.account.id)).toEqual([]);
  });
});
