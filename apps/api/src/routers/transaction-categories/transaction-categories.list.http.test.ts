import { transactionCategoryRoutes } from "@allot/contract/transaction-categories/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/testing/test-app";
import { byText, type Category, categoriesKit } from "../../../test/testing/transaction-categories-test-kit";

describe.each(testEngines())("transaction categories over HTTP: list filters (%s)", (engine) => {
  const t = useTestApp(engine);
  const kit = categoriesKit(t);
  const { list, listAll, created, archive, account } = kit;
  let globals: Category[];
  const _globalNamed = (fullName: string) => kit.globalNamed(globals, fullName);

  beforeAll(async () => {
    globals = await listAll(await t.user(), { scope: "global" });
  });

  describe("list filters", () => {
    it("group: exact match, case-insensitive and whitespace-normalised", async () => {
      const user = await t.user();
      const own = await created(user, "Food & Drink", "Street Food");
      const results = await listAll(user, { group: "  food  &   DRINK " });
      const expected = globals.filter((c) => c.group === "Food & Drink").length + 1;
      expect(results).toHaveLength(expected);
      expect(results.every((c) => c.group === "Food & Drink")).toBe(true);
      expect(results.map((c) => c.id)).toContain(own.id);
      expect(await listAll(user, { group: "Food" })).toEqual([]);
    });

    it("archived: true and false both filter, and false stays false; absent lists both", async () => {
      const user = await t.user();
      const active = await created(user, "Filters", "Active");
      const archived = await created(user, "Filters", "Archived");
      expect((await archive(user, archived.id)).statusCode).toBe(200);

      const ids = async (query: Parameters<typeof listAll>[1]) =>
        (await listAll(user, query)).map((c) => c.id);
      expect(await ids({ scope: "mine", archived: false })).toEqual([active.id]);
      expect(await ids({ scope: "mine", archived: "0" })).toEqual([active.id]);
      expect(await ids({ scope: "mine", archived: true })).toEqual([archived.id]);
      expect(await ids({ scope: "mine" })).toEqual([active.id, archived.id]);
      expect(await ids({ archived: false })).not.toContain(archived.id);
      expect((await listAll(user, { archived: false })).length).toBe(globals.length + 1);

      const bad = await list(user, { archived: "maybe" });
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(bad.json())).toEqual(["archived"]);
    });

    it("scope: global, mine and shared partition the visible categories", async () => {
      const user = await t.user();
      const coOwner = await t.user();
      await account(user, coOwner);
      const mine = await created(user, "Scopes", "Mine");
      const theirs = await created(coOwner, "Scopes", "Theirs");

      const global = await listAll(user, { scope: "global" });
      expect(global).toHaveLength(globals.length);
      expect(global.every((c) => c.owner === null)).toBe(true);
      expect(await listAll(user, { scope: "mine" })).toEqual([mine]);
      expect(await listAll(user, { scope: "shared" })).toEqual([theirs]);
      expect(await listAll(coOwner, { scope: "shared" })).toEqual([mine]);
      expect(await listAll(user)).toHaveLength(globals.length + 2);

      const bad = await t.as(user).callUnchecked(transactionCategoryRoutes.list, { scope: "everyone" });
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(bad.json())).toEqual(["scope"]);
    });

    it("search: a case-insensitive substring of the group or the name", async () => {
      const user = await t.user();
      const own = await created(user, "Searchable", "Zebra Stripes");

      const groceries = await listAll(user, { search: "GROC" });
      expect(groceries.map((c) => c.full_name)).toContain("Food & Drink : Groceries");
      expect(groceries.every((c) => `${c.group} ${c.name}`.toLowerCase().includes("groc"))).toBe(true);

      const utilities = await listAll(user, { search: "utilit" });
      expect(utilities.length).toBeGreaterThan(0);
      expect(utilities.filter((c) => c.group === "Utilities")).toHaveLength(
        globals.filter((c) => c.group === "Utilities").length,
      );

      expect((await listAll(user, { search: "zebra s" })).map((c) => c.id)).toEqual([own.id]);
      expect((await listAll(user, { search: "searchABLE" })).map((c) => c.id)).toEqual([own.id]);
      // Wildcards are literal.
      expect(await listAll(user, { search: "%" })).toEqual([]);
      expect(await listAll(user, { search: "_" })).toEqual([]);
    });

    it("combines filters", async () => {
      const user = await t.user();
      const kept = await created(user, "Combo", "Kept");
      const gone = await created(user, "Combo", "Gone");
      await archive(user, gone.id);
      expect(await listAll(user, { group: "combo", archived: false, scope: "mine", search: "kep" })).toEqual([
        kept,
      ]);
      expect(await listAll(user, { group: "combo", archived: false, scope: "global" })).toEqual([]);
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
      const results = await listAll(user, { ordering });
      expect(results.map((c) => c.full_name)).toEqual([...results].sort(compare).map((c) => c.full_name));
    });

    it("ordering=created_at and -created_at follow creation", async () => {
      const user = await t.user();
      const first = await created(user, "Order", "First");
      const second = await created(user, "Order", "Second");
      const third = await created(user, "Order", "Third");
      const ids = async (ordering: string) =>
        (await listAll(user, { scope: "mine", ordering })).map((c) => c.id);
      expect(await ids("created_at")).toEqual([first.id, second.id, third.id]);
      expect(await ids("-created_at")).toEqual([third.id, second.id, first.id]);

      const bad = await list(user, { ordering: "owner" });
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(bad.json())).toEqual(["ordering"]);
    });

    it("paginates: page_size, next/previous links, a page past the last is 404, sizes capped at 500", async () => {
      const user = await t.user();
      const first = await list(user, { page_size: 50 });
      expect(first.statusCode).toBe(200);
      const page1 = first.json();
      expect(page1.count).toBe(globals.length);
      expect(page1.results).toHaveLength(50);
      expect(page1.previous).toBeNull();
      expect(page1.next).toMatch(/[?&]page=2(&|$)/);
      expect(page1.next).toMatch(/[?&]page_size=50(&|$)/);

      const second = await list(user, { page_size: 50, page: 2 });
      const page2 = second.json();
      expect(page2.results).toHaveLength(50);
      expect(page2.previous).toMatch(/[?&]page=1(&|$)/);
      const seen = new Set([...page1.results, ...page2.results].map((c: Category) => c.id));
      expect(seen.size).toBe(100);

      const lastPage = Math.ceil(globals.length / 50);
      const last = (await list(user, { page_size: 50, page: lastPage })).json();
      expect(last.next).toBeNull();
      expect(last.results).toHaveLength(globals.length - (lastPage - 1) * 50);

      expect((await list(user, { page_size: 50, page: lastPage + 1 })).statusCode).toBe(404);
      const capped = (await list(user, { page_size: 100000 })).json();
      expect(capped.results).toHaveLength(Math.min(globals.length, 500));
      // Default page size: 100.
      expect((await list(user)).json().results).toHaveLength(Math.min(globals.length, 100));
      expect((await list(user, { page: 0 })).statusCode).toBe(400);
    });
  });
});
