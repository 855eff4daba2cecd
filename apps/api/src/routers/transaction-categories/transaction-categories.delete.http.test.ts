import { transactionCategoryRoutes } from "@allot/contract/transaction-categories/routes";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { describeOnPostgres } from "@allot/db/testing/server-suites";
import { testEngines } from "@allot/db/testing/test-databases";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { aCategory, anAccount } from "../../../test/testing/fixtures";
import { type TestUser, useTestApp } from "../../../test/testing/test-app";
import { categoriesKit } from "../../../test/testing/transaction-categories-test-kit";

describe.each(testEngines())("transaction categories over HTTP: delete (%s)", (engine) => {
  const t = useTestApp(engine);
  const kit = categoriesKit(t);
  const {
    created,
    retrieve,
    remove,
    account,
    endSharing,
    transaction,
    allocation,
    budgetListing,
    autoSpendOf,
  } = kit;

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
      expect(response.json<{ code: string }>().code).toBe("category_in_use");
    });
  });
});

// PostgreSQL only: PGlite serves one connection, so a delete and a create never overlap there.
describeOnPostgres("deleting a category while a transaction is created with it (postgres)", () => {
  const t = useTestApp("postgres");
  let owner: TestUser;
  let accountId: string;

  beforeAll(async () => {
    owner = await t.user();
    accountId = (await anAccount(t, owner, { name: "Race" })).id;
  });

  const newCategory = async (name: string): Promise<string> =>
    (await aCategory(t, owner, { group: "Race", name })).id;
  const remove = (id: string) => t.as(owner).call(transactionCategoryRoutes.delete, { id });
  const createWith = (category: string) =>
    t.as(owner).call(transactionRoutes.create, {
      bank_account: accountId,
      amount: "-3.00",
      transaction_date: "2026-01-10",
      transaction_type: "ach",
      raw_description: "RACE",
      category,
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
});
