import { bankAccountOwners } from "@allot/db/schema/bank-accounts";
import { budgets } from "@allot/db/schema/budgets";
import { transactionAllocations } from "@allot/db/schema/transaction-allocations";
import { transactionCategories } from "@allot/db/schema/transaction-categories";
import { transactions } from "@allot/db/schema/transactions";
import { testEngines } from "@allot/db/testing/test-databases";
import { createBank } from "@allot/domain/banks/create-bank";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type TestUser, useTestApp } from "../../../test/testing/test-app";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const BASE = "/api/v1/transaction-categories/";
const MISSING = "5f0c4f7e-3f39-4a8e-9d1c-000000000000";
const BASE_NAMES = [
  "Food & Drink : Groceries",
  "Food & Drink : Restaurants",
  "Income : Paycheck",
  "Home : Rent",
  "Utilities : Internet",
  "Transportation : Gas",
  "Uncategorized : Unknown",
];

interface Category {
  id: string;
  group: string;
  name: string;
  full_name: string;
  owner: string | null;
  archived: boolean;
  created_at: string;
  modified_at: string;
}

/** Case-insensitive text order, as the API sorts (lower() on both engines). */
const byText = (a: string, b: string) =>
  a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0;

describe.each(testEngines())("transaction categories over HTTP (%s)", (engine) => {
  const t = useTestApp(engine);
  let bank: string;
  let globals: Category[];

  const auth = (user: TestUser) => ({ authorization: user.bearer });
  const list = (user: TestUser, query = "") => t.inject({ url: `${BASE}${query}`, headers: auth(user) });
  const listAll = async (user: TestUser, query = ""): Promise<Category[]> => {
    const response = await list(user, `?page_size=500${query ? `&${query}` : ""}`);
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json();
    expect(page.next).toBeNull();
    return page.results;
  };
  const create = (user: TestUser, payload: Record<string, unknown>) =>
    t.inject({ method: "POST", url: BASE, headers: auth(user), payload });
  const created = async (user: TestUser, group: string, name: string): Promise<Category> => {
    const response = await create(user, { group, name });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  };
  const retrieve = (user: TestUser, id: string) => t.inject({ url: `${BASE}${id}/`, headers: auth(user) });
  const put = (user: TestUser, id: string, payload: Record<string, unknown>) =>
    t.inject({ method: "PUT", url: `${BASE}${id}/`, headers: auth(user), payload });
  const patch = (user: TestUser, id: string, payload: Record<string, unknown>) =>
    t.inject({ method: "PATCH", url: `${BASE}${id}/`, headers: auth(user), payload });
  const remove = (user: TestUser, id: string) =>
    t.inject({ method: "DELETE", url: `${BASE}${id}/`, headers: auth(user) });
  const archive = (user: TestUser, id: string) =>
    t.inject({ method: "POST", url: `${BASE}${id}/archive/`, headers: auth(user) });
  const globalNamed = (fullName: string) => {
    const found = globals.find((c) => c.full_name === fullName);
    if (!found) throw new Error(`no global ${fullName}`);
    return found;
  };

  /** An account of `owner` over HTTP; more owners are added straight into bank_account_owners. */
  const account = async (owner: TestUser, ...coOwners: TestUser[]) => {
    const response = await t.inject({
      method: "POST",
      url: "/api/v1/bank-accounts/",
      headers: auth(owner),
      payload: { name: "Household", bank },
    });
    expect(response.statusCode, response.body).toBe(201);
    const id: string = response.json().id;
    for (const user of coOwners)
      await t.db.insert(bankAccountOwners).values({ bankAccountId: id, userId: user.id });
    return id;
  };
  const endSharing = (accountId: string, user: TestUser) =>
    t.db
      .delete(bankAccountOwners)
      .where(and(eq(bankAccountOwners.bankAccountId, accountId), eq(bankAccountOwners.userId, user.id)));
  /** A transaction row written directly (the transactions endpoints are not part of this area). */
  const transaction = async (accountId: string, categoryId: string | null) => {
    const [row] = await t.db
      .insert(transactions)
      .values({
        bankAccountId: accountId,
        amount: "-12.50",
        postedDate: new Date(),
        transactionDate: new Date(),
        rawDescription: "CARD PURCHASE",
        description: "Card purchase",
        categoryId,
      })
      .returning();
    return row?.id as string;
  };
  const allocation = async (accountId: string, categoryId: string) =>
    t.db.insert(transactionAllocations).values({
      transactionId: await transaction(accountId, null),
      bankAccountId: accountId,
      amount: "-12.50",
      categoryId,
    });

  /** A Goal over HTTP listing these auto_spend entries; answers its id. */
  const budgetListing = async (user: TestUser, accountId: string, autoSpend: string[]) => {
    const response = await t.inject({
      method: "POST",
      url: "/api/v1/budgets/",
      headers: auth(user),
      payload: {
        name: "Routed",
        bank_account: accountId,
        budget_type: "G",
        funding_type: "F",
        target_balance: "100",
        funding_amount: "10",
        auto_spend: autoSpend,
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id as string;
  };
  const autoSpendOf = async (budgetId: string) =>
    (await t.db.select().from(budgets).where(eq(budgets.id, budgetId)))[0]?.autoSpend;
  /** A transaction created over HTTP with this category. */
  const createTransaction = (user: TestUser, accountId: string, category: string) =>
    t.inject({
      method: "POST",
      url: "/api/v1/transactions/",
      headers: auth(user),
      payload: {
        bank_account: accountId,
        amount: "-12.50",
        transaction_date: "2026-01-10",
        transaction_type: "ach",
        raw_description: "CARD PURCHASE",
        category,
      },
    });

  beforeAll(async () => {
    bank = (await createBank(t.db, { name: "Category Bank", currency: "USD" })).id;
    const viewer = await t.user();
    globals = await listAll(viewer, "scope=global");
  });

  describe("the global base set", () => {
    it("holds at least 150 categories in about 20 groups, the named ones included", async () => {
      expect(globals.length).toBeGreaterThanOrEqual(150);
      expect(new Set(globals.map((c) => c.group)).size).toBeGreaterThanOrEqual(18);
      const fullNames = globals.map((c) => c.full_name);
      expect(fullNames).toEqual(expect.arrayContaining(BASE_NAMES));
      for (const category of globals) {
        expect(category).toEqual({
          id: expect.stringMatching(UUID),
          group: expect.any(String),
          name: expect.any(String),
          full_name: `${category.group} : ${category.name}`,
          owner: null,
          archived: false,
          created_at: expect.stringMatching(ISO_DATE_TIME),
          modified_at: expect.stringMatching(ISO_DATE_TIME),
        });
      }
    });

    it("is visible to every user and listed by group, then name, by default", async () => {
      const user = await t.user();
      const response = await list(user, "?page_size=500");
      expect(response.statusCode).toBe(200);
      const page = response.json();
      expect(page.count).toBe(globals.length);
      const results: Category[] = page.results;
      const sorted = [...results].sort((a, b) => byText(a.group, b.group) || byText(a.name, b.name));
      expect(results.map((c) => c.id)).toEqual(sorted.map((c) => c.id));

      const groceries = globalNamed("Food & Drink : Groceries");
      const fetched = await retrieve(user, groceries.id);
      expect(fetched.statusCode).toBe(200);
      expect(fetched.json()).toEqual(groceries);
    });

    it("cannot be changed, archived or deleted: 403", async () => {
      const user = await t.user();
      const rent = globalNamed("Home : Rent");
      for (const response of [
        await put(user, rent.id, { group: "Home", name: "Lodging" }),
        await patch(user, rent.id, { name: "Lodging" }),
        await archive(user, rent.id),
        await remove(user, rent.id),
      ]) {
        expect(response.statusCode, response.body).toBe(403);
        expect(response.json()).toEqual({ detail: expect.any(String), code: "permission_denied" });
      }
      expect((await retrieve(user, rent.id)).json()).toEqual(rent);
    });
  });

  describe("authentication", () => {
    it("refuses anonymous callers on every endpoint: 401", async () => {
      const id = globalNamed("Home : Rent").id;
      for (const [method, url] of [
        ["GET", BASE],
        ["POST", BASE],
        ["GET", `${BASE}${id}/`],
        ["PUT", `${BASE}${id}/`],
        ["PATCH", `${BASE}${id}/`],
        ["DELETE", `${BASE}${id}/`],
        ["POST", `${BASE}${id}/archive/`],
      ] as const) {
        const response = await t.inject({ method, url, payload: method === "GET" ? undefined : {} });
        expect(response.statusCode, `${method} ${url}`).toBe(401);
        expect(response.json().code).toBe("not_authenticated");
      }
    });

    it("accepts an API key", async () => {
      const user = await t.user();
      const key = await t.apiKey(user);
      const response = await t.inject({
        method: "POST",
        url: BASE,
        headers: { authorization: key },
        payload: { group: "Machines", name: "Imported" },
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().owner).toBe(user.username);
    });
  });

  describe("create", () => {
    it("normalises whitespace, makes the caller the owner and answers 201", async () => {
      const user = await t.user();
      const response = await create(user, { group: "  Side \t  Hustle ", name: " Etsy   Sales  " });
      expect(response.statusCode, response.body).toBe(201);
      const category = response.json();
      expect(category).toEqual({
        id: expect.stringMatching(UUID),
        group: "Side Hustle",
        name: "Etsy Sales",
        full_name: "Side Hustle : Etsy Sales",
        owner: user.username,
        archived: false,
        created_at: expect.stringMatching(ISO_DATE_TIME),
        modified_at: expect.stringMatching(ISO_DATE_TIME),
      });
      const fetched = await retrieve(user, category.id);
      expect(fetched.statusCode).toBe(200);
      expect(fetched.json()).toEqual(category);
    });

    it("accepts form-encoded and multipart bodies", async () => {
      const user = await t.user();
      const form = await t.inject({
        method: "POST",
        url: BASE,
        headers: { ...auth(user), "content-type": "application/x-www-form-urlencoded" },
        payload: "group=Garden&name=Seeds+%26+Bulbs",
      });
      expect(form.statusCode, form.body).toBe(201);
      expect(form.json()).toMatchObject({ group: "Garden", name: "Seeds & Bulbs", owner: user.username });

      const boundary = "----allot-categories-boundary";
      const multipart = await t.inject({
        method: "POST",
        url: BASE,
        headers: { ...auth(user), "content-type": `multipart/form-data; boundary=${boundary}` },
        payload:
          `--${boundary}\r\nContent-Disposition: form-data; name="group"\r\n\r\nGarden\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nTools\r\n--${boundary}--\r\n`,
      });
      expect(multipart.statusCode, multipart.body).toBe(201);
      expect(multipart.json()).toMatchObject({ full_name: "Garden : Tools" });
    });

    it.each([
      ["a missing group", { name: "Seeds" }, "group", "This field is required."],
      ["a missing name", { group: "Garden" }, "name", "This field is required."],
      ["a blank group", { group: "   ", name: "Seeds" }, "group", "This field may not be blank."],
      ["a blank name", { group: "Garden", name: "\t \n" }, "name", "This field may not be blank."],
      [
        "a group over 100 characters",
        { group: "g".repeat(101), name: "Seeds" },
        "group",
        "Ensure this field has no more than 100 characters.",
      ],
      [
        "a name over 100 characters",
        { group: "Garden", name: `${"n".repeat(60)} ${"n".repeat(40)}` },
        "name",
        "Ensure this field has no more than 100 characters.",
      ],
      [
        "a colon in the group",
        { group: "Garden: Outdoor", name: "Seeds" },
        "group",
        "A group may not contain a colon.",
      ],
      ["a number for the name", { group: "Garden", name: 12 }, "name", expect.any(String)],
    ])("refuses %s: 400 on the field", async (_label, payload, field, message) => {
      const user = await t.user();
      const response = await create(user, payload);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toEqual({ [field]: [message] });
      expect(await listAll(user, "scope=mine")).toEqual([]);
    });

    it("measures length after normalising: 100 characters padded with whitespace is fine", async () => {
      const user = await t.user();
      const name = `${"n".repeat(50)}${" ".repeat(5)}${"m".repeat(49)}`;
      const category = await created(user, "Long", `   ${name}   `);
      expect(category.name).toBe(`${"n".repeat(50)} ${"m".repeat(49)}`);
      expect(category.name).toHaveLength(100);
    });

    it("allows a colon in the name: the full name splits on the first colon", async () => {
      const user = await t.user();
      const category = await created(user, "Travel Plans", "Flights: International");
      expect(category.full_name).toBe("Travel Plans : Flights: International");
    });

    it("refuses a case-insensitive duplicate of a global category: 400 on non_field_errors", async () => {
      const user = await t.user();
      const response = await create(user, { group: " food   &  DRINK ", name: "groceries" });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toEqual({ non_field_errors: [expect.stringContaining("already exists")] });
      expect(await listAll(user, "scope=mine")).toEqual([]);
    });

    it("refuses a case-insensitive duplicate of one's own, but not of another user's or a co-owner's", async () => {
      const user = await t.user();
      const coOwner = await t.user();
      const stranger = await t.user();
      await account(user, coOwner);
      await created(coOwner, "Hobbies", "Pottery");
      await created(stranger, "Hobbies", "Pottery");

      const mine = await created(user, "Hobbies", "Pottery");
      expect(mine.owner).toBe(user.username);
      const again = await create(user, { group: "HOBBIES", name: " pottery " });
      expect(again.statusCode).toBe(400);
      expect(Object.keys(again.json())).toEqual(["non_field_errors"]);
      // Same name in another group is a different category.
      await created(user, "Crafts", "Pottery");
    });

    it("creates one of two identical requests sent at once; the other is a 400", async () => {
      const user = await t.user();
      const responses = await Promise.all([
        create(user, { group: "Race", name: "Twins" }),
        create(user, { group: "race", name: "TWINS" }),
      ]);
      expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 400]);
      expect(await listAll(user, "scope=mine")).toHaveLength(1);
    });
  });

  describe("retrieve", () => {
    it("answers 404 for another user's category, an unknown id and a malformed id", async () => {
      const owner = await t.user();
      const stranger = await t.user();
      const category = await created(owner, "Private", "Secret");
      for (const response of [
        await retrieve(stranger, category.id),
        await retrieve(stranger, MISSING),
        await retrieve(stranger, "not-a-uuid"),
      ]) {
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ detail: expect.any(String), code: "not_found" });
      }
    });

    it("works without the trailing slash", async () => {
      const user = await t.user();
      const response = await t.inject({
        url: `${BASE}${globalNamed("Home : Rent").id}`,
        headers: auth(user),
      });
      expect(response.statusCode).toBe(200);
    });
  });

  describe("list filters", () => {
    it("group: exact match, case-insensitive and whitespace-normalised", async () => {
      const user = await t.user();
      const own = await created(user, "Food & Drink", "Street Food");
      const results = await listAll(user, `group=${encodeURIComponent("  food  &   DRINK ")}`);
      const expected = globals.filter((c) => c.group === "Food & Drink").length + 1;
      expect(results).toHaveLength(expected);
      expect(results.every((c) => c.group === "Food & Drink")).toBe(true);
      expect(results.map((c) => c.id)).toContain(own.id);
      expect(await listAll(user, "group=Food")).toEqual([]);
    });

    it("archived: true and false both filter, and false stays false; absent lists both", async () => {
      const user = await t.user();
      const active = await created(user, "Filters", "Active");
      const archived = await created(user, "Filters", "Archived");
      expect((await archive(user, archived.id)).statusCode).toBe(200);

      const ids = async (query: string) => (await listAll(user, query)).map((c) => c.id);
      expect(await ids("scope=mine&archived=false")).toEqual([active.id]);
      expect(await ids("scope=mine&archived=0")).toEqual([active.id]);
      expect(await ids("scope=mine&archived=true")).toEqual([archived.id]);
      expect(await ids("scope=mine")).toEqual([active.id, archived.id]);
      expect(await ids("archived=false")).not.toContain(archived.id);
      expect((await listAll(user, "archived=false")).length).toBe(globals.length + 1);

      const bad = await list(user, "?archived=maybe");
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(bad.json())).toEqual(["archived"]);
    });

    it("scope: global, mine and shared partition the visible categories", async () => {
      const user = await t.user();
      const coOwner = await t.user();
      await account(user, coOwner);
      const mine = await created(user, "Scopes", "Mine");
      const theirs = await created(coOwner, "Scopes", "Theirs");

      const global = await listAll(user, "scope=global");
      expect(global).toHaveLength(globals.length);
      expect(global.every((c) => c.owner === null)).toBe(true);
      expect(await listAll(user, "scope=mine")).toEqual([mine]);
      expect(await listAll(user, "scope=shared")).toEqual([theirs]);
      expect(await listAll(coOwner, "scope=shared")).toEqual([mine]);
      expect(await listAll(user)).toHaveLength(globals.length + 2);

      const bad = await list(user, "?scope=everyone");
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(bad.json())).toEqual(["scope"]);
    });

    it("search: a case-insensitive substring of the group or the name", async () => {
      const user = await t.user();
      const own = await created(user, "Searchable", "Zebra Stripes");

      const groceries = await listAll(user, "search=GROC");
      expect(groceries.map((c) => c.full_name)).toContain("Food & Drink : Groceries");
      expect(groceries.every((c) => `${c.group} ${c.name}`.toLowerCase().includes("groc"))).toBe(true);

      const utilities = await listAll(user, "search=utilit");
      expect(utilities.length).toBeGreaterThan(0);
      expect(utilities.filter((c) => c.group === "Utilities")).toHaveLength(
        globals.filter((c) => c.group === "Utilities").length,
      );

      expect((await listAll(user, "search=zebra%20s")).map((c) => c.id)).toEqual([own.id]);
      expect((await listAll(user, "search=searchABLE")).map((c) => c.id)).toEqual([own.id]);
      // Wildcards are literal.
      expect(await listAll(user, "search=%25")).toEqual([]);
      expect(await listAll(user, "search=_")).toEqual([]);
    });

    it("combines filters", async () => {
      const user = await t.user();
      const kept = await created(user, "Combo", "Kept");
      const gone = await created(user, "Combo", "Gone");
      await archive(user, gone.id);
      expect(await listAll(user, "group=combo&archived=false&scope=mine&search=kep")).toEqual([kept]);
      expect(await listAll(user, "group=combo&archived=false&scope=global")).toEqual([]);
    });

    it.each([
      ["name", (a: Category, b: Category) => byText(a.name, b.name) || byText(a.group, b.group)],
      ["-name", (a: Category, b: Category) => byText(b.name, a.name) || byText(b.group, a.group)],
      ["group", (a: Category, b: Category) => byText(a.group, b.group) || byText(a.name, b.name)],
      ["-group", (a: Category, b: Category) => byText(b.group, a.group) || byText(b.name, a.name)],
      ["full_name", (a: Category, b: Category) => byText(a.full_name, b.full_name)],
      ["-full_name", (a: Category, b: Category) => byText(b.full_name, a.full_name)],
    ])("ordering=%s", async (ordering, compare) => {
      const user = await t.user();
      await created(user, "aaa lower", "zzz");
      await created(user, "AAA Upper", "aaa");
      const results = await listAll(user, `ordering=${ordering}`);
      expect(results.map((c) => c.full_name)).toEqual([...results].sort(compare).map((c) => c.full_name));
    });

    it("ordering=created_at and -created_at follow creation", async () => {
      const user = await t.user();
      const first = await created(user, "Order", "First");
      const second = await created(user, "Order", "Second");
      const third = await created(user, "Order", "Third");
      const ids = async (ordering: string) =>
        (await listAll(user, `scope=mine&ordering=${ordering}`)).map((c) => c.id);
      expect(await ids("created_at")).toEqual([first.id, second.id, third.id]);
      expect(await ids("-created_at")).toEqual([third.id, second.id, first.id]);

      const bad = await list(user, "?ordering=owner");
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(bad.json())).toEqual(["ordering"]);
    });

    it("paginates: page_size, next/previous links, a page past the last is 404, sizes capped at 500", async () => {
      const user = await t.user();
      const first = await list(user, "?page_size=50");
      expect(first.statusCode).toBe(200);
      const page1 = first.json();
      expect(page1.count).toBe(globals.length);
      expect(page1.results).toHaveLength(50);
      expect(page1.previous).toBeNull();
      expect(page1.next).toMatch(/[?&]page=2(&|$)/);
      expect(page1.next).toMatch(/[?&]page_size=50(&|$)/);

      const second = await list(user, "?page_size=50&page=2");
      const page2 = second.json();
      expect(page2.results).toHaveLength(50);
      expect(page2.previous).toMatch(/[?&]page=1(&|$)/);
      const seen = new Set([...page1.results, ...page2.results].map((c: Category) => c.id));
      expect(seen.size).toBe(100);

      const lastPage = Math.ceil(globals.length / 50);
      const last = (await list(user, `?page_size=50&page=${lastPage}`)).json();
      expect(last.next).toBeNull();
      expect(last.results).toHaveLength(globals.length - (lastPage - 1) * 50);

      expect((await list(user, `?page_size=50&page=${lastPage + 1}`)).statusCode).toBe(404);
      const capped = (await list(user, "?page_size=100000")).json();
      expect(capped.results).toHaveLength(Math.min(globals.length, 500));
      // Default page size: 100.
      expect((await list(user)).json().results).toHaveLength(Math.min(globals.length, 100));
      expect((await list(user, "?page=0")).statusCode).toBe(400);
    });
  });

  describe("visibility through co-ownership", () => {
    it("shows a co-owner's categories; only the owner may change them (403); strangers get 404", async () => {
      const owner = await t.user();
      const coOwner = await t.user();
      const stranger = await t.user();
      await account(owner, coOwner);
      const category = await created(owner, "Shared", "Household Goods");

      const seen = await retrieve(coOwner, category.id);
      expect(seen.statusCode).toBe(200);
      expect(seen.json()).toEqual(category);
      expect((await listAll(coOwner)).map((c) => c.id)).toContain(category.id);

      for (const response of [
        await put(coOwner, category.id, { group: "Shared", name: "Mine Now" }),
        await patch(coOwner, category.id, { name: "Mine Now" }),
        await archive(coOwner, category.id),
        await remove(coOwner, category.id),
      ]) {
        expect(response.statusCode, response.body).toBe(403);
        expect(response.json()).toEqual({ detail: expect.any(String), code: "permission_denied" });
      }

      for (const response of [
        await retrieve(stranger, category.id),
        await put(stranger, category.id, { group: "Shared", name: "Mine Now" }),
        await patch(stranger, category.id, { name: "Mine Now" }),
        await archive(stranger, category.id),
        await remove(stranger, category.id),
      ]) {
        expect(response.statusCode, response.body).toBe(404);
        expect(response.json().code).toBe("not_found");
      }
      expect((await listAll(stranger)).map((c) => c.id)).not.toContain(category.id);
      expect((await retrieve(owner, category.id)).json()).toEqual(category);
    });

    it("keeps categories the caller's transactions or allocations reference visible after sharing ends", async () => {
      const owner = await t.user();
      const formerCoOwner = await t.user();
      const accountId = await account(owner, formerCoOwner);
      const onTransaction = await created(formerCoOwner, "Former", "On Transaction");
      const onAllocation = await created(formerCoOwner, "Former", "On Allocation");
      const unused = await created(formerCoOwner, "Former", "Unused");
      await transaction(accountId, onTransaction.id);
      await allocation(accountId, onAllocation.id);
      expect((await listAll(owner, "scope=shared")).map((c) => c.id).sort()).toEqual(
        [onTransaction.id, onAllocation.id, unused.id].sort(),
      );

      await endSharing(accountId, formerCoOwner);

      expect((await retrieve(owner, onTransaction.id)).statusCode).toBe(200);
      expect((await retrieve(owner, onAllocation.id)).statusCode).toBe(200);
      expect((await retrieve(owner, unused.id)).statusCode).toBe(404);
      expect((await listAll(owner, "scope=shared")).map((c) => c.id).sort()).toEqual(
        [onTransaction.id, onAllocation.id].sort(),
      );
      // Still someone else's: visible, but not the caller's to change.
      expect((await patch(owner, onTransaction.id, { name: "Renamed" })).statusCode).toBe(403);
      // The former co-owner no longer sees the account's owner's categories.
      const ownersOwn = await created(owner, "Owner", "Own");
      expect((await retrieve(formerCoOwner, ownersOwn.id)).statusCode).toBe(404);
    });
  });

  describe("update", () => {
    it("PUT renames group and name with normalisation; modified_at moves on", async () => {
      const user = await t.user();
      const category = await created(user, "Old Group", "Old Name");
      const response = await put(user, category.id, { group: "  New   Group ", name: "New  Name " });
      expect(response.statusCode, response.body).toBe(200);
      const updated = response.json();
      expect(updated).toEqual({
        ...category,
        group: "New Group",
        name: "New Name",
        full_name: "New Group : New Name",
        modified_at: expect.stringMatching(ISO_DATE_TIME),
      });
      expect(Date.parse(updated.modified_at)).toBeGreaterThanOrEqual(Date.parse(category.modified_at));
      expect((await retrieve(user, category.id)).json()).toEqual(updated);
    });

    it("PUT needs both fields: 400 on the missing one", async () => {
      const user = await t.user();
      const category = await created(user, "Needs", "Both");
      const response = await put(user, category.id, { name: "Only" });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ group: ["This field is required."] });
    });

    it("PATCH changes only what it is given, form-encoded too", async () => {
      const user = await t.user();
      const category = await created(user, "Patch Group", "Patch Name");
      const named = await patch(user, category.id, { name: "Other Name" });
      expect(named.statusCode, named.body).toBe(200);
      expect(named.json()).toMatchObject({ group: "Patch Group", name: "Other Name" });

      const form = await t.inject({
        method: "PATCH",
        url: `${BASE}${category.id}/`,
        headers: { ...auth(user), "content-type": "application/x-www-form-urlencoded" },
        payload: "group=Form+Group",
      });
      expect(form.statusCode, form.body).toBe(200);
      expect(form.json()).toMatchObject({ group: "Form Group", name: "Other Name" });

      const empty = await patch(user, category.id, {});
      expect(empty.statusCode).toBe(200);
      expect(empty.json()).toMatchObject({ full_name: "Form Group : Other Name" });
    });

    it("lets the owner change only the case of a name", async () => {
      const user = await t.user();
      const category = await created(user, "Case", "lower");
      const response = await patch(user, category.id, { name: "LOWER" });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().name).toBe("LOWER");
    });

    it("refuses a rename onto a global or another own category: 400 on non_field_errors", async () => {
      const user = await t.user();
      const category = await created(user, "Rename", "Me");
      await created(user, "Rename", "Taken");
      for (const payload of [
        { group: "home", name: "RENT" },
        { group: "Rename", name: "taken" },
      ]) {
        const response = await put(user, category.id, payload);
        expect(response.statusCode, response.body).toBe(400);
        expect(Object.keys(response.json())).toEqual(["non_field_errors"]);
      }
      for (const [payload, field] of [
        [{ name: "  " }, "name"],
        [{ group: "a:b" }, "group"],
        [{ group: "x".repeat(101) }, "group"],
      ] as const) {
        const response = await patch(user, category.id, payload);
        expect(response.statusCode, response.body).toBe(400);
        expect(Object.keys(response.json())).toEqual([field]);
      }
      expect((await retrieve(user, category.id)).json()).toMatchObject({ full_name: "Rename : Me" });
    });

    it("answers 404 for an unknown or malformed id", async () => {
      const user = await t.user();
      expect((await patch(user, MISSING, { name: "X" })).statusCode).toBe(404);
      expect((await put(user, "nope", { group: "X", name: "X" })).statusCode).toBe(404);
    });
  });

  describe("archive", () => {
    it("hides nothing from retrieval, keeps references valid, and repeating it is harmless", async () => {
      const user = await t.user();
      const accountId = await account(user);
      const category = await created(user, "Archive", "Me");
      const transactionId = await transaction(accountId, category.id);

      const response = await archive(user, category.id);
      expect(response.statusCode, response.body).toBe(200);
      const archived = response.json();
      expect(archived).toEqual({
        ...category,
        archived: true,
        modified_at: expect.stringMatching(ISO_DATE_TIME),
      });

      const again = await archive(user, category.id);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(archived);

      expect((await retrieve(user, category.id)).json()).toEqual(archived);
      const [row] = await t.db.select().from(transactions).where(eq(transactions.id, transactionId));
      expect(row?.categoryId).toBe(category.id);
      // Still the owner's to rename.
      expect((await patch(user, category.id, { name: "Renamed" })).json()).toMatchObject({
        name: "Renamed",
        archived: true,
      });
    });

    it("takes no new references: a new transaction naming it is 400 on category", async () => {
      const user = await t.user();
      const accountId = await account(user);
      const category = await created(user, "Archive", "Closed");
      expect((await createTransaction(user, accountId, category.id)).statusCode).toBe(201);
      expect((await archive(user, category.id)).statusCode).toBe(200);
      const refused = await createTransaction(user, accountId, category.id);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json()).toEqual({ category: ["This category is archived."] });
      // The reference made before archiving stays.
      expect(
        await t.db.select().from(transactions).where(eq(transactions.categoryId, category.id)),
      ).toHaveLength(1);
    });

    it("answers 404 for an unknown id, and GET on the archive path is 405", async () => {
      const user = await t.user();
      expect((await archive(user, MISSING)).statusCode).toBe(404);
      const category = await created(user, "Archive", "Method");
      const wrong = await t.inject({ url: `${BASE}${category.id}/archive/`, headers: auth(user) });
      expect(wrong.statusCode).toBe(405);
    });
  });

  describe("delete", () => {
    it("removes an unreferenced category: 204, then 404", async () => {
      const user = await t.user();
      const category = await created(user, "Delete", "Me");
      const response = await remove(user, category.id);
      expect(response.statusCode, response.body).toBe(204);
      expect(response.body).toBe("");
      expect((await retrieve(user, category.id)).statusCode).toBe(404);
      expect((await remove(user, category.id)).statusCode).toBe(404);
      // The name is free again.
      await created(user, "Delete", "Me");
    });

    it("refuses while a transaction or an allocation references it: 409 category_in_use", async () => {
      const user = await t.user();
      const accountId = await account(user);
      const onTransaction = await created(user, "In Use", "Transaction");
      const onAllocation = await created(user, "In Use", "Allocation");
      await transaction(accountId, onTransaction.id);
      await allocation(accountId, onAllocation.id);

      for (const category of [onTransaction, onAllocation]) {
        const response = await remove(user, category.id);
        expect(response.statusCode, response.body).toBe(409);
        expect(response.json()).toEqual({
          detail: expect.stringMatching(/archive/i),
          code: "category_in_use",
        });
        expect((await retrieve(user, category.id)).statusCode).toBe(200);
      }
    });

    it("takes its name out of every auto_spend list that could name it, in the same transaction", async () => {
      const owner = await t.user();
      const coOwner = await t.user();
      const stranger = await t.user();
      const shared = await account(owner, coOwner);
      const coOwnersOwn = await account(coOwner);
      const fish = await created(owner, "Pets", "Fish");
      const onShared = await budgetListing(owner, shared, ["Pets : Fish", "Home : Rent"]);
      // The co-owner sees the owner's category and lists it in an account of their own.
      const onCoOwners = await budgetListing(coOwner, coOwnersOwn, ["Home : Rent", "pets : fish"]);
      // A stranger's namesake is another category: untouched.
      await created(stranger, "Pets", "Fish");
      const onStrangers = await budgetListing(stranger, await account(stranger), ["Pets : Fish"]);

      expect((await remove(owner, fish.id)).statusCode).toBe(204);
      expect(await autoSpendOf(onShared)).toEqual(["Home : Rent"]);
      expect(await autoSpendOf(onCoOwners)).toEqual(["Home : Rent"]);
      expect(await autoSpendOf(onStrangers)).toEqual(["Pets : Fish"]);
    });

    it("leaves the name where a namesake the account's owners see still answers to it", async () => {
      const owner = await t.user();
      const coOwner = await t.user();
      const shared = await account(owner, coOwner);
      const mine = await created(owner, "Pets", "Fish");
      await created(coOwner, "Pets", "Fish");
      const budget = await budgetListing(coOwner, shared, ["Pets : Fish"]);
      expect((await remove(owner, mine.id)).statusCode).toBe(204);
      expect(await autoSpendOf(budget)).toEqual(["Pets : Fish"]);
    });

    it("refuses while a former co-owner's transaction still references it", async () => {
      const owner = await t.user();
      const other = await t.user();
      const accountId = await account(other, owner);
      const category = await created(owner, "Left Behind", "Category");
      await transaction(accountId, category.id);
      await endSharing(accountId, owner);
      const response = await remove(owner, category.id);
      expect(response.statusCode).toBe(409);
      expect(response.json().code).toBe("category_in_use");
    });
  });

  it("leaves global rows untouched in the database", async () => {
    const rows = await t.db
      .select()
      .from(transactionCategories)
      .where(eq(transactionCategories.id, globalNamed("Home : Rent").id));
    expect(rows[0]).toMatchObject({ group: "Home", name: "Rent", ownerId: null, archived: false });
  });
  it("carries a rename into the auto_spend lists of the owner's budgets", async () => {
    const owner = await t.user();
    const accountId = await account(owner);
    const fish = await created(owner, "Pets", "Fish");
    const [budget] = await t.db
      .insert(budgets)
      .values({
        bankAccountId: accountId,
        name: "Aquarium",
        budgetType: "G",
        fundingType: "F",
        targetBalance: "10",
        autoSpend: ["Pets : Fish", "Home : Rent"],
      })
      .returning();
    expect((await patch(owner, fish.id, { name: "Goldfish" })).statusCode).toBe(200);
    const [after] = await t.db
      .select()
      .from(budgets)
      .where(eq(budgets.id, budget?.id as string));
    expect(after?.autoSpend).toEqual(["Pets : Goldfish", "Home : Rent"]);
  });
  it("carries a rename into a co-owner's budgets too, but not where a namesake still answers to the old name", async () => {
    const owner = await t.user();
    const coOwner = await t.user();
    const shared = await account(owner, coOwner);
    const coOwnersOwn = await account(coOwner);
    const birds = await created(owner, "Pets", "Birds");
    const cats = await created(owner, "Pets", "Cats");
    await created(coOwner, "Pets", "Cats");
    const onCoOwners = await budgetListing(coOwner, coOwnersOwn, ["Pets : Birds", "Pets : Cats"]);
    const onShared = await budgetListing(owner, shared, ["Pets : Birds"]);
    expect((await patch(owner, birds.id, { name: "Parrots" })).statusCode).toBe(200);
    expect((await patch(owner, cats.id, { name: "Kittens" })).statusCode).toBe(200);
    expect(await autoSpendOf(onCoOwners)).toEqual(["Pets : Parrots", "Pets : Cats"]);
    expect(await autoSpendOf(onShared)).toEqual(["Pets : Parrots"]);
  });
});

// PostgreSQL only: PGlite serves one connection, so a delete and a create never overlap there.
describe.each(testEngines().filter((engine) => engine === "postgres"))(
  "deleting a category while a transaction is created with it (%s)",
  (engine) => {
    const t = useTestApp(engine);
    let owner: TestUser;
    let accountId: string;

    beforeAll(async () => {
      const bank = await createBank(t.db, { name: "Race Bank", currency: "USD" });
      owner = await t.user();
      const response = await t.inject({
        method: "POST",
        url: "/api/v1/bank-accounts/",
        headers: { authorization: owner.bearer },
        payload: { name: "Race", bank: bank.id },
      });
      expect(response.statusCode, response.body).toBe(201);
      accountId = response.json().id;
    });

    const newCategory = async (name: string): Promise<string> => {
      const response = await t.inject({
        method: "POST",
        url: BASE,
        headers: { authorization: owner.bearer },
        payload: { group: "Race", name },
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().id;
    };
    const remove = (id: string) =>
      t.inject({ method: "DELETE", url: `${BASE}${id}/`, headers: { authorization: owner.bearer } });
    const createWith = (category: string) =>
      t.inject({
        method: "POST",
        url: "/api/v1/transactions/",
        headers: { authorization: owner.bearer },
        payload: {
          bank_account: accountId,
          amount: "-3.00",
          transaction_date: "2026-01-10",
          transaction_type: "ach",
          raw_description: "RACE",
          category,
        },
      });
    /** Until some session of this database waits for a row lock. */
    const someoneWaitsForALock = async () => {
      for (let tries = 0; tries < 200; tries++) {
        // postgres.js answers the rows as an array.
        const waiting = (await t.db.execute(
          sql`select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        )) as unknown as unknown[];
        if (waiting.length > 0) return;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error("no session ever waited for a lock");
    };

    it("answers 400 on category, not 500, when the delete commits while the create waits", async () => {
      const category = await newCategory("Held");
      let pending: ReturnType<typeof createWith> | undefined;
      // The delete, as deleteCategory runs it, holding its row lock while the create arrives.
      await t.db.transaction(async (tx) => {
        await tx.execute(sql`select id from transaction_categories where id = ${category} for update`);
        pending = createWith(category);
        await someoneWaitsForALock();
        await tx.execute(sql`delete from transaction_categories where id = ${category}`);
      });
      const response = await (pending as ReturnType<typeof createWith>);
      expect(response.statusCode, response.body).toBe(400);
      expect(Object.keys(response.json())).toEqual(["category"]);
    });

    it("never answers 500 to a delete and a create racing: one of them wins cleanly", {
      timeout: 60_000,
    }, async () => {
      for (let round = 0; round < 25; round++) {
        const category = await newCategory(`Round ${round}`);
        const [deleted, createdTransaction] =
          round % 2 === 0
            ? await Promise.all([remove(category), createWith(category)])
            : await Promise.all([createWith(category), remove(category)]).then(([c, d]) => [d, c] as const);
        const outcome = `${createdTransaction.statusCode}/${deleted.statusCode}`;
        // Created, so the delete found a reference; or deleted, so the create found no category.
        expect(["201/409", "400/204"], `${outcome} ${createdTransaction.body} ${deleted.body}`).toContain(
          outcome,
        );
        if (createdTransaction.statusCode === 400)
          expect(Object.keys(createdTransaction.json())).toEqual(["category"]);
      }
    });
  },
);
