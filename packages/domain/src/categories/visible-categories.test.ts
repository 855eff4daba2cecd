import type { DatabaseHandle } from "@allot/db/create-database";
import { bankAccountOwners, bankAccounts } from "@allot/db/schema/bank-accounts";
import { banks } from "@allot/db/schema/banks";
import { transactionAllocations } from "@allot/db/schema/transaction-allocations";
import { transactionCategories } from "@allot/db/schema/transaction-categories";
import { transactions } from "@allot/db/schema/transactions";
import { openTestDatabase, testEngines } from "@allot/db/testing/test-databases";
import { eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { internalContext } from "../shared/use-case-context";
import { createUser } from "../users/create-user";
import {
  findVisibleCategory,
  findVisibleCategoryByFullName,
  normaliseCategoryName,
  toCategoryView,
  visibleCategoryCondition,
} from "./visible-categories";

describe("normaliseCategoryName", () => {
  it.each([
    ["Food & Drink : Groceries", "Food & Drink", "Groceries"],
    ["Food & Drink:Groceries", "Food & Drink", "Groceries"],
    ["  Food   &\tDrink  :   Fast   Food  ", "Food & Drink", "Fast Food"],
    ["Travel : Flights: International", "Travel", "Flights: International"],
    ["Groceries", "Groceries", "Groceries"],
    ["  Pet   Care ", "Pet Care", "Pet Care"],
    ["Food:", "Food", ""],
    [":Groceries", "", "Groceries"],
    ["", "", ""],
    ["   ", "", ""],
  ])("%j → group %j, name %j", (text, group, name) => {
    expect(normaliseCategoryName(text)).toEqual({ group, name, fullName: `${group} : ${name}` });
  });

  it("keeps the case: matching is case-insensitive, the stored text is not changed", () => {
    expect(normaliseCategoryName("food & drink:GROCERIES").fullName).toBe("food & drink : GROCERIES");
  });
});

describe("toCategoryView", () => {
  it("gives the wire TransactionCategory", () => {
    const at = new Date("2024-05-01T10:00:00.000Z");
    const row = {
      id: "0b6a5f8e-6c1d-4a51-9a53-1c2b3d4e5f60",
      group: "Home",
      name: "Rent",
      ownerId: null,
      archived: false,
      createdAt: at,
      modifiedAt: at,
    };
    expect(toCategoryView(row, null)).toEqual({
      id: row.id,
      group: "Home",
      name: "Rent",
      full_name: "Home : Rent",
      owner: null,
      archived: false,
      created_at: "2024-05-01T10:00:00.000Z",
      modified_at: "2024-05-01T10:00:00.000Z",
    });
  });
});

describe.each(testEngines())("category visibility (%s)", (engine) => {
  let database: DatabaseHandle;
  let bankId: string;
  let counter = 0;
  beforeAll(async () => {
    database = await openTestDatabase(engine);
    const [bank] = await database.db
      .insert(banks)
      .values({ name: "Visibility Bank", defaultCurrency: "USD" })
      .returning();
    bankId = bank?.id as string;
  });
  afterAll(async () => {
    await database?.close();
  });

  const user = async () => {
    counter += 1;
    return (
      await createUser(internalContext(database.db, "cli"), {
        email: `visible${counter}@example.com`,
        password: "pw-pw-pw-pw",
      })
    ).id;
  };
  const account = async (...ownerIds: number[]) => {
    const [row] = await database.db
      .insert(bankAccounts)
      .values({ name: "Shared", bankId, currency: "USD" })
      .returning();
    const id = row?.id as string;
    for (const userId of ownerIds)
      await database.db.insert(bankAccountOwners).values({ bankAccountId: id, userId });
    return id;
  };
  const category = async (ownerId: number | null, group: string, name: string) => {
    const [row] = await database.db
      .insert(transactionCategories)
      .values({ group, name, ownerId })
      .returning();
    return row?.id as string;
  };
  const visibleIds = async (userId: number) =>
    (
      await database.db
        .select({ id: transactionCategories.id })
        .from(transactionCategories)
        .where(visibleCategoryCondition(userId))
    ).map((row) => row.id);

  it("shows globals, own, co-owners' and still-referenced categories, and nothing else", async () => {
    const me = await user();
    const coOwner = await user();
    const formerCoOwner = await user();
    const stranger = await user();
    await account(me, coOwner);
    const mine = await account(me);
    const own = await category(me, "Mine", "One");
    const coOwners = await category(coOwner, "Theirs", "Shared");
    const referenced = await category(formerCoOwner, "Former", "Referenced");
    const allocated = await category(formerCoOwner, "Former", "Allocated");
    const forgotten = await category(formerCoOwner, "Former", "Forgotten");
    const strangers = await category(stranger, "Stranger", "Hidden");

    const [tx] = await database.db
      .insert(transactions)
      .values({
        bankAccountId: mine,
        amount: "-5.00",
        postedDate: new Date(),
        transactionDate: new Date(),
        rawDescription: "COFFEE",
        description: "Coffee",
        categoryId: referenced,
      })
      .returning();
    await database.db.insert(transactionAllocations).values({
      transactionId: tx?.id as string,
      bankAccountId: mine,
      amount: "-5.00",
      categoryId: allocated,
    });

    const ids = await visibleIds(me);
    expect(ids).toEqual(expect.arrayContaining([own, coOwners, referenced, allocated]));
    expect(ids).not.toContain(forgotten);
    expect(ids).not.toContain(strangers);
    const globals = await database.db.$count(transactionCategories, isNull(transactionCategories.ownerId));
    expect(globals).toBeGreaterThanOrEqual(150);
    expect(ids).toHaveLength(globals + 4);

    expect(await findVisibleCategory(database.db, me, coOwners)).toMatchObject({ group: "Theirs" });
    expect(await findVisibleCategory(database.db, me, strangers)).toBeNull();
    expect(await findVisibleCategory(database.db, stranger, own)).toBeNull();
    // The co-owner sees mine in turn; the stranger sees only globals and their own.
    expect(await findVisibleCategory(database.db, coOwner, own)).not.toBeNull();
    expect(await visibleIds(stranger)).not.toContain(own);
  });

  it("finds by full name case-insensitively after normalising, preferring own, then global", async () => {
    const me = await user();
    const coOwner = await user();
    await account(me, coOwner);

    const groceries = await findVisibleCategoryByFullName(database.db, me, "  food &   DRINK:groceries ");
    expect(groceries).toMatchObject({ group: "Food & Drink", name: "Groceries", ownerId: null });
    expect(await findVisibleCategoryByFullName(database.db, me, "Food & Drink : Nope")).toBeNull();
    expect(await findVisibleCategoryByFullName(database.db, me, "Food & Drink")).toBeNull();
    expect(await findVisibleCategoryByFullName(database.db, me, " : ")).toBeNull();

    // A co-owner's category is found; the user's own namesake wins over it, a global over both.
    const theirs = await category(coOwner, "Hobbies", "Pottery");
    expect((await findVisibleCategoryByFullName(database.db, me, "hobbies:pottery"))?.id).toBe(theirs);
    const own = await category(me, "Hobbies", "POTTERY");
    expect((await findVisibleCategoryByFullName(database.db, me, "hobbies:pottery"))?.id).toBe(own);
    const coOwnersGroceries = await category(coOwner, "Food & Drink", "Groceries");
    expect((await findVisibleCategoryByFullName(database.db, me, "Food & Drink:Groceries"))?.id).toBe(
      groceries?.id,
    );
    expect((await findVisibleCategoryByFullName(database.db, coOwner, "Food & Drink:Groceries"))?.id).toBe(
      coOwnersGroceries,
    );

    // Single-word text: group and name the same.
    const single = await category(me, "Pets", "Pets");
    expect((await findVisibleCategoryByFullName(database.db, me, "pets"))?.id).toBe(single);

    // Archived categories still resolve: they stay valid references.
    await database.db
      .update(transactionCategories)
      .set({ archived: true })
      .where(eq(transactionCategories.id, single));
    expect((await findVisibleCategoryByFullName(database.db, me, "Pets : Pets"))?.id).toBe(single);
    // An active namesake wins over an archived one, even over the user's own.
    await database.db
      .update(transactionCategories)
      .set({ archived: true })
      .where(eq(transactionCategories.id, own));
    expect((await findVisibleCategoryByFullName(database.db, me, "hobbies:pottery"))?.id).toBe(theirs);

    const stranger = await user();
    expect(await findVisibleCategoryByFullName(database.db, stranger, "Pets : Pets")).toBeNull();
  });
});
