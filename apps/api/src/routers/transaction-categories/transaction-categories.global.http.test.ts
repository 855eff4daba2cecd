import { transactionCategoryRoutes } from "@allot/contract/transaction-categories/routes";
import { transactionCategories } from "@allot/db/schema/transaction-categories";
import { testEngines } from "@allot/db/testing/test-databases";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/testing/test-app";
import {
  byText,
  type Category,
  categoriesKit,
  ISO_DATE_TIME,
  UUID,
} from "../../../test/testing/transaction-categories-test-kit";

const BASE_NAMES = [
  "Food & Drink : Groceries",
  "Food & Drink : Restaurants",
  "Income : Paycheck",
  "Home : Rent",
  "Utilities : Internet",
  "Transportation : Gas",
  "Uncategorized : Unknown",
];

describe.each(testEngines())(
  "transaction categories over HTTP: the global base set and who may call (%s)",
  (engine) => {
    const t = useTestApp(engine);
    const kit = categoriesKit(t);
    const { list, retrieve, put, patch, remove, archive, listAll } = kit;
    let globals: Category[];
    const globalNamed = (fullName: string) => kit.globalNamed(globals, fullName);

    beforeAll(async () => {
      globals = await listAll(await t.user(), { scope: "global" });
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
        const response = await list(user, { page_size: 500 });
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

    it("leaves global rows untouched in the database", async () => {
      const rows = await t.db
        .select()
        .from(transactionCategories)
        .where(eq(transactionCategories.id, globalNamed("Home : Rent").id));
      expect(rows[0]).toMatchObject({ group: "Home", name: "Rent", ownerId: null, archived: false });
    });

    describe("authentication", () => {
      it("refuses anonymous callers on every endpoint: 401", async () => {
        const id = globalNamed("Home : Rent").id;
        for (const [route, input] of [
          [transactionCategoryRoutes.list, {}],
          [transactionCategoryRoutes.create, {}],
          [transactionCategoryRoutes.get, { id }],
          [transactionCategoryRoutes.replace, { id }],
          [transactionCategoryRoutes.update, { id }],
          [transactionCategoryRoutes.delete, { id }],
          [transactionCategoryRoutes.archive, { id }],
        ] as const) {
          const response = await t.anonymous.callUnchecked(route, input);
          expect(response.statusCode, `${route.method} ${route.path}`).toBe(401);
          expect(response.json<{ code: string }>().code).toBe("not_authenticated");
        }
      });

      it("accepts an API key", async () => {
        const user = await t.user();
        const key = await t.apiKey(user);
        const response = await t
          .as(key)
          .call(transactionCategoryRoutes.create, { group: "Machines", name: "Imported" });
        expect(response.statusCode, response.body).toBe(201);
        expect(response.json().owner).toBe(user.username);
      });
    });
  },
);
