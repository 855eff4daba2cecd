import { allRoutes } from "@allot/contract/routes";
import { transactions } from "@allot/db/schema/transactions";
import { testEngines } from "@allot/db/testing/test-databases";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { anAccount, aTransaction } from "../../test/testing/fixtures";
import { type TestUser, useTestApp } from "../../test/testing/test-app";
import { queryParametersOf } from "./unknown-query-parameters";

const UNKNOWN = /^Unknown query parameter; this endpoint takes /;

describe.each(testEngines())("query parameters a route does not read (%s)", (engine) => {
  const t = useTestApp(engine);
  let user: TestUser;
  let account: { id: string };
  let transaction: { id: string };

  beforeAll(async () => {
    user = await t.user();
    account = await anAccount(t, user, { balance: "100.00" });
    transaction = await aTransaction(t, user, account, { amount: "-20.00" });
  });

  const get = (url: string, caller: TestUser | null = user) =>
    t.inject({ method: "GET", url, headers: caller ? { authorization: caller.bearer } : {} });
  const errors = (response: { json(): unknown }) => response.json() as Record<string, string[]>;

  it("refuses the issue's misspelt amount filters, each keyed by its name, naming what the list takes", async () => {
    const response = await get("/api/v1/transactions/?min_amount=-20&max_amount=0");
    expect(response.statusCode, response.body).toBe(400);
    const body = errors(response);
    expect(Object.keys(body).sort()).toEqual(["max_amount", "min_amount"]);
    const [message] = body.min_amount ?? [];
    expect(message).toMatch(UNKNOWN);
    expect(message).toContain("amount_min");
    expect(message).toContain("page_size");
  });

  it("takes page, page_size and ordering on every page-numbered list, even one that does not sort", async () => {
    const transactionsList = await get("/api/v1/transactions/?page=1&page_size=10&ordering=-amount");
    expect(transactionsList.statusCode, transactionsList.body).toBe(200);
    // Webhooks and activity keep a fixed order: ordering is taken and changes nothing.
    const webhooks = await get("/api/v1/webhooks/?page=1&page_size=5&ordering=-created_at");
    expect(webhooks.statusCode, webhooks.body).toBe(200);
    const activity = await get(`/api/v1/bank-accounts/${account.id}/activity/?ordering=x&page_size=2`);
    expect(activity.statusCode, activity.body).toBe(200);
    // A known filter repeated (`a=1&a=2`) is the filter's to judge, not an unknown name.
    const repeated = await get(
      `/api/v1/bank-accounts/${account.id}/activity/?type=transaction.created&type=budget.created`,
    );
    expect(repeated.statusCode, repeated.body).toBe(200);
  });

  it("refuses a repeated unknown name once, an empty one, and a path parameter sent again in the query", async () => {
    const repeated = await get("/api/v1/transactions/?typo=1&typo=2&page=1");
    expect([repeated.statusCode, Object.keys(errors(repeated))]).toEqual([400, ["typo"]]);
    const empty = await get("/api/v1/transactions/?typo=");
    expect([empty.statusCode, Object.keys(errors(empty))]).toEqual([400, ["typo"]]);
    const id = await get(`/api/v1/transactions/${transaction.id}/?id=${transaction.id}`);
    expect(id.statusCode, id.body).toBe(400);
    expect(errors(id)).toEqual({ id: ["Unknown query parameter; this endpoint takes none."] });
    const proto = await get("/api/v1/users/me/?__proto__=1");
    expect(Object.keys(errors(proto))).toEqual(["__proto__"]);
  });

  it("reads the change feed's cursor and page size, and nothing a page-numbered list takes", async () => {
    const snapshot = await get(`/api/v1/bank-accounts/${account.id}/changes/?page_size=10`);
    expect(snapshot.statusCode, snapshot.body).toBe(200);
    const { cursor } = snapshot.json() as { cursor: string };
    const since = await get(
      `/api/v1/bank-accounts/${account.id}/changes/?since=${encodeURIComponent(cursor)}`,
    );
    expect(since.statusCode, since.body).toBe(200);
    const wrong = await get(`/api/v1/bank-accounts/${account.id}/changes/?cursor=x&page=2`);
    expect(wrong.statusCode, wrong.body).toBe(400);
    expect(Object.keys(errors(wrong)).sort()).toEqual(["cursor", "page"]);
  });

  it("refuses any query parameter on a write or a delete, which then writes nothing", async () => {
    const aWrite = {
      bank_account: account.id,
      amount: "-1.00",
      transaction_date: "2026-02-01",
      transaction_type: "fee",
    };
    const created = await t.inject({
      method: "POST",
      url: "/api/v1/transactions/?format=json",
      headers: { authorization: user.bearer, "idempotency-key": "query-strict-1" },
      payload: { ...aWrite, raw_description: "SHOULD NOT EXIST" },
    });
    expect(created.statusCode, created.body).toBe(400);
    expect(errors(created)).toEqual({
      format: ["Unknown query parameter; this endpoint takes none (its fields go in the request body)."],
    });
    const rows = await t.db
      .select()
      .from(transactions)
      .where(eq(transactions.rawDescription, "SHOULD NOT EXIST"));
    expect(rows).toEqual([]);

    const patched = await t.inject({
      method: "PATCH",
      url: `/api/v1/transactions/${transaction.id}/?memo=x`,
      headers: { authorization: user.bearer },
      payload: { memo: "from the body" },
    });
    expect([patched.statusCode, Object.keys(errors(patched))]).toEqual([400, ["memo"]]);
    const deleted = await t.inject({
      method: "DELETE",
      url: `/api/v1/transactions/${transaction.id}/?force=1`,
      headers: { authorization: user.bearer },
    });
    expect([deleted.statusCode, Object.keys(errors(deleted))]).toEqual([400, ["force"]]);
    expect((await get(`/api/v1/transactions/${transaction.id}/`)).json()).toMatchObject({ memo: null });

    // The same write and Idempotency-Key without the query: the refusal kept no answer for the key.
    const plain = await t.inject({
      method: "POST",
      url: "/api/v1/transactions/",
      headers: { authorization: user.bearer, "idempotency-key": "query-strict-1" },
      payload: { ...aWrite, raw_description: "SHOULD NOT EXIST" },
    });
    expect(plain.statusCode, plain.body).toBe(201);
    expect(await t.db.$count(transactions, eq(transactions.rawDescription, "SHOULD NOT EXIST"))).toBe(1);
  });

  it("covers the token endpoints and receipt downloads, not the pages outside /api", async () => {
    const login = await t.inject({
      method: "POST",
      url: "/api/token/?next=/",
      payload: { email: "nobody@example.com", password: "x" },
    });
    expect([login.statusCode, Object.keys(errors(login))]).toEqual([400, ["next"]]);
    const image = await get(`/api/v1/transactions/${transaction.id}/image/?size=large`);
    expect([image.statusCode, Object.keys(errors(image))]).toEqual([400, ["size"]]);
    expect((await get("/healthz?verbose=1", null)).statusCode).toBe(200);
    expect((await get("/api/v1/openapi.json?format=yaml", null)).statusCode).toBe(200);
  });

  it("answers 401 before judging the query of an anonymous caller", async () => {
    const response = await get("/api/v1/transactions/?typo=1", null);
    expect(response.statusCode).toBe(401);
  });

  it("names the first 20 of thousands of unknown parameters and counts the rest", async () => {
    const query = Array.from({ length: 3000 }, (_, i) => `p${i}=1`).join("&");
    const response = await get(`/api/v1/transactions/?${query}`);
    expect(response.statusCode).toBe(400);
    const body = errors(response);
    expect(Object.keys(body)).toHaveLength(21);
    expect(body.p0).toBeDefined();
    expect(body.non_field_errors).toEqual(["3000 unknown query parameters; the first 20 are named."]);
  });
});

describe("the query parameters of each route", () => {
  const byPath = (method: string, path: string) => {
    const route = allRoutes.find((r) => r.method === method && r.path === path);
    if (!route) throw new Error(`${method} ${path}`);
    return [...queryParametersOf(route)].sort();
  };

  it("are the input's fields less the path's on GET and DELETE, none on writes", () => {
    expect(byPath("GET", "/v1/transactions/{id}/")).toEqual([]);
    expect(byPath("DELETE", "/v1/budgets/{id}/")).toEqual([]);
    expect(byPath("GET", "/v1/bank-accounts/{id}/changes/")).toEqual(["page_size", "since"]);
    expect(byPath("GET", "/v1/webhooks/")).toEqual(["ordering", "page", "page_size"]);
    expect(byPath("GET", "/v1/transactions/")).toContain("amount_min");
    expect(byPath("POST", "/v1/bank-accounts/{id}/sync-scrape/")).toEqual([]);
  });

  it("are named for every route without throwing", () => {
    for (const route of allRoutes) expect(() => queryParametersOf(route)).not.toThrow();
  });
});
