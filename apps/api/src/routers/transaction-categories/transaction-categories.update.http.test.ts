import { budgets } from "@allot/db/schema/budgets";
import { testEngines } from "@allot/db/testing/test-databases";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/testing/test-app";
import {
  BASE,
  categoriesKit,
  ISO_DATE_TIME,
  MISSING,
} from "../../../test/testing/transaction-categories-test-kit";

describe.each(testEngines())("transaction categories over HTTP: update (%s)", (engine) => {
  const t = useTestApp(engine);
  const kit = categoriesKit(t);
  const { created, retrieve, put, patch, account, budgetListing, autoSpendOf } = kit;

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
        headers: { authorization: user.bearer, "content-type": "application/x-www-form-urlencoded" },
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
