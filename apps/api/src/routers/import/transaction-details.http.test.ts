import { importRoutes } from "@allot/contract/import/routes";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { transactions } from "@allot/db/schema/transactions";
import { testEngines } from "@allot/db/testing/test-databases";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type TestUser, useTestApp } from "../../../test/testing/test-app";
import { transactionKit } from "../../../test/testing/transaction-test-kit";

const UNKNOWN = "00000000-0000-4000-8000-000000000000";
const GROCERY_DETAILS = {
  merchant_name: "Whole Foods",
  merchant_information: "AUSTIN, TX",
  merchant_category: "Grocery Stores",
  merchant_category_code: "5411",
  virtual_card_number: "4111",
};

/** `levels` arrays, one inside the other. */
const nested = (levels: number): unknown[] => {
  let value: unknown[] = [];
  for (let level = 1; level < levels; level++) value = [value];
  return value;
};

describe.each(testEngines())("transaction-details over HTTP (%s)", (engine) => {
  const t = useTestApp(engine);
  const kit = transactionKit(t);

  const send = (user: TestUser | string, accountId: string, payload: Record<string, unknown>) =>
    t.as(user).callUnchecked(importRoutes.transactionDetails, { id: accountId, ...payload });
  /** 200 expected; the response body. */
  const apply = async (user: TestUser, accountId: string, payload: Record<string, unknown>) => {
    const response = await send(user, accountId, payload);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const view = async (user: TestUser, id: string) =>
    (await t.as(user).call(transactionRoutes.get, { id })).json();
  const storedDetails = async (id: string) => {
    const [row] = await t.db
      .select({ details: transactions.details, type: sql<string>`jsonb_typeof(${transactions.details})` })
      .from(transactions)
      .where(eq(transactions.id, id));
    return row;
  };
  const setUp = async () => {
    const user = await t.user();
    const account = await kit.account(user);
    return { user, account };
  };

  describe("statuses", () => {
    it("answers each item in submission order, with counts; a repeated id sees the first result", async () => {
      const { user, account } = await setUp();
      const posted = await kit.transaction(user, account.id);
      const pending = await kit.transaction(user, account.id, { pending: true });
      const enriched = await kit.transaction(user, account.id);
      await apply(user, account.id, {
        details: [{ transaction: enriched.id, details: { merchant_name: "A" } }],
      });
      const otherAccount = await kit.account(user);
      const inOtherAccount = await kit.transaction(user, otherAccount.id);
      const stranger = await t.user();
      const strangersAccount = await kit.account(stranger);
      const strangers = await kit.transaction(stranger, strangersAccount.id);

      const body = await apply(user, account.id, {
        details: [
          { transaction: UNKNOWN, details: {} },
          { transaction: posted.id, details: { merchant_name: "Cafe" } },
          { transaction: pending.id, details: { merchant_name: "Cafe" } },
          { transaction: enriched.id, details: { merchant_name: "B" } },
          { transaction: inOtherAccount.id, details: { merchant_name: "Cafe" } },
          { transaction: strangers.id, details: { merchant_name: "Cafe" } },
          { transaction: posted.id, details: { merchant_name: "Again" } },
        ],
      });
      expect(body).toEqual({
        applied: 1,
        skipped_has_details: 2,
        skipped_pending: 1,
        not_found: 3,
        results: [
          { transaction: UNKNOWN, status: "not_found", warnings: [] },
          { transaction: posted.id, status: "applied", warnings: [] },
          { transaction: pending.id, status: "skipped_pending", warnings: [] },
          { transaction: enriched.id, status: "skipped_has_details", warnings: [] },
          { transaction: inOtherAccount.id, status: "not_found", warnings: [] },
          { transaction: strangers.id, status: "not_found", warnings: [] },
          { transaction: posted.id, status: "skipped_has_details", warnings: [] },
        ],
      });
      expect((await view(user, posted.id)).merchant_name).toBe("Cafe");
      expect((await view(user, pending.id)).has_details).toBe(false);
      expect((await view(user, enriched.id)).merchant_name).toBe("A");
      expect((await view(user, inOtherAccount.id)).has_details).toBe(false);
      expect((await view(stranger, strangers.id)).has_details).toBe(false);
    });

    it("skips a pending row even with overwrite, and answers zeros for an empty list", async () => {
      const { user, account } = await setUp();
      const pending = await kit.transaction(user, account.id, { pending: true });
      const body = await apply(user, account.id, {
        overwrite: true,
        details: [{ transaction: pending.id, details: GROCERY_DETAILS }],
      });
      expect(body.results).toEqual([{ transaction: pending.id, status: "skipped_pending", warnings: [] }]);
      expect(await apply(user, account.id, { details: [] })).toEqual({
        applied: 0,
        skipped_has_details: 0,
        skipped_pending: 0,
        not_found: 0,
        results: [],
      });
    });

    it("applies a repeated id twice with overwrite, the second over the first", async () => {
      const { user, account } = await setUp();
      const row = await kit.transaction(user, account.id);
      const body = await apply(user, account.id, {
        overwrite: true,
        details: [
          { transaction: row.id, details: { merchant_name: "First" } },
          { transaction: row.id, details: { merchant_name: "Second" } },
        ],
      });
      expect(body.applied).toBe(2);
      expect(await storedDetails(row.id)).toEqual({ details: { merchant_name: "Second" }, type: "object" });
      // The second is an overwrite: its merchant name, the first one's description.
      expect(await view(user, row.id)).toMatchObject({ merchant_name: "Second", description: "First" });
    });
  });

  describe("details and merchant columns", () => {
    it("stores the record verbatim and extracts the merchant columns from it", async () => {
      const { user, account } = await setUp();
      const row = await kit.transaction(user, account.id, { raw_description: "WHOLEFDS AUS 10234" });
      const details = {
        ...GROCERY_DETAILS,
        id: 12345678,
        amount: -10.5,
        is_refund: false,
        tags: ["food", { nested: [1, null, "ünï €"] }],
        note: null,
      };
      const body = await apply(user, account.id, { details: [{ transaction: row.id, details }] });
      expect(body.results).toEqual([{ transaction: row.id, status: "applied", warnings: [] }]);
      expect(await storedDetails(row.id)).toEqual({ details, type: "object" });
      expect(await view(user, row.id)).toMatchObject({
        has_details: true,
        merchant_name: "Whole Foods",
        merchant_city: "AUSTIN",
        merchant_region: "TX",
        merchant_country: "US",
        merchant_category: "Grocery Stores",
        merchant_category_code: "5411",
        virtual_card_number: "4111",
        description: "Whole Foods -- AUSTIN, TX (Grocery Stores)",
        raw_description: "WHOLEFDS AUS 10234",
        description_user_edited: false,
      });
      await kit.ledgerHolds(account.id);
    });

    it("warns about what it cuts or drops and never fails on odd types", async () => {
      const { user, account } = await setUp();
      const row = await kit.transaction(user, account.id, { raw_description: "SOME SHOP" });
      const body = await apply(user, account.id, {
        details: [
          {
            transaction: row.id,
            details: {
              merchant_name: "N".repeat(140),
              merchant_information: "LONDON, UK",
              merchant_category: { label: "Shops" },
              merchant_category_code: "54110",
              virtual_card_number: 1234567,
            },
          },
        ],
      });
      expect(body.results[0]).toEqual({
        transaction: row.id,
        status: "applied",
        warnings: [
          "merchant_name was longer than 128 characters and was cut.",
          'merchant_information "LONDON, UK" is not "CITY, ST"; location left empty.',
          "merchant_category is not text; ignored.",
          'merchant_category_code "54110" is not 4 digits; dropped.',
        ],
      });
      expect(await view(user, row.id)).toMatchObject({
        merchant_name: "N".repeat(128),
        merchant_city: null,
        merchant_region: null,
        merchant_country: null,
        merchant_category: null,
        merchant_category_code: null,
        virtual_card_number: "1234567",
        description: "N".repeat(128),
      });
    });

    it("reads a numeric 4-digit MCC and a title-case city", async () => {
      const { user, account } = await setUp();
      const row = await kit.transaction(user, account.id);
      await apply(user, account.id, {
        details: [
          {
            transaction: row.id,
            details: {
              merchant_name: "Taco Stand",
              merchant_information: "Austin, tx",
              merchant_category_code: 5812,
            },
          },
        ],
      });
      expect(await view(user, row.id)).toMatchObject({
        merchant_category_code: "5812",
        merchant_city: "Austin",
        merchant_region: "TX",
        merchant_country: "US",
        description: "Taco Stand -- Austin, TX",
      });
    });
  });

  describe("description, overwrite and user-entered fields", () => {
    it("recomposes the description on first enrichment only; an overwrite replaces the merchant fields", async () => {
      const { user, account } = await setUp();
      const row = await kit.transaction(user, account.id, { raw_description: "WHOLEFDS AUS" });
      await apply(user, account.id, { details: [{ transaction: row.id, details: GROCERY_DETAILS }] });
      expect((await view(user, row.id)).description).toBe("Whole Foods -- AUSTIN, TX (Grocery Stores)");

      // Without overwrite nothing changes; with it, the new record replaces the old one and the
      // merchant fields the old one filled in (the category it no longer has included); the
      // location and the description stay the ones the first enrichment set.
      const newer = { merchant_name: "Whole Foods Market", merchant_information: "DALLAS, TX" };
      const skipped = await apply(user, account.id, { details: [{ transaction: row.id, details: newer }] });
      expect(skipped.results[0]?.status).toBe("skipped_has_details");
      const body = await apply(user, account.id, {
        overwrite: true,
        details: [{ transaction: row.id, details: newer }],
      });
      expect(body.results[0]?.status).toBe("applied");
      expect(await storedDetails(row.id)).toEqual({ details: newer, type: "object" });
      expect(await view(user, row.id)).toMatchObject({
        merchant_name: "Whole Foods Market",
        merchant_city: "AUSTIN",
        merchant_region: "TX",
        merchant_category: null,
        merchant_category_code: null,
        virtual_card_number: null,
        description: "Whole Foods -- AUSTIN, TX (Grocery Stores)",
      });
    });

    it("keeps a user-edited description, on first enrichment and on overwrite", async () => {
      const { user, account } = await setUp();
      const row = await kit.transaction(user, account.id);
      const patched = await t
        .as(user)
        .call(transactionRoutes.update, { id: row.id, description: "Weekly shop" });
      expect(patched.json().description_user_edited).toBe(true);
      await apply(user, account.id, { details: [{ transaction: row.id, details: GROCERY_DETAILS }] });
      expect(await view(user, row.id)).toMatchObject({
        description: "Weekly shop",
        merchant_name: "Whole Foods",
      });
      await apply(user, account.id, {
        overwrite: true,
        details: [{ transaction: row.id, details: { merchant_name: "Other" } }],
      });
      expect(await view(user, row.id)).toMatchObject({ description: "Weekly shop", merchant_name: "Other" });
    });

    it("keeps a description the user edited after the first enrichment when overwriting", async () => {
      const { user, account } = await setUp();
      const row = await kit.transaction(user, account.id);
      await apply(user, account.id, { details: [{ transaction: row.id, details: GROCERY_DETAILS }] });
      await t.as(user).call(transactionRoutes.update, { id: row.id, description: "Groceries" });
      await apply(user, account.id, {
        overwrite: true,
        details: [{ transaction: row.id, details: { merchant_name: "Other" } }],
      });
      expect((await view(user, row.id)).description).toBe("Groceries");
    });

    it("never overwrites location fields a user entered, and fills the empty ones", async () => {
      const { user, account } = await setUp();
      const row = await kit.transaction(user, account.id, {
        merchant_city: "Round Rock",
        merchant_latitude: "30.508300",
      });
      await apply(user, account.id, { details: [{ transaction: row.id, details: GROCERY_DETAILS }] });
      const first = await view(user, row.id);
      expect(first).toMatchObject({
        merchant_city: "Round Rock",
        merchant_region: "TX",
        merchant_country: "US",
        merchant_latitude: "30.508300",
        merchant_name: "Whole Foods",
        description: "Whole Foods -- Round Rock, TX (Grocery Stores)",
      });
      await apply(user, account.id, {
        overwrite: true,
        details: [
          { transaction: row.id, details: { ...GROCERY_DETAILS, merchant_information: "DALLAS, TX" } },
        ],
      });
      expect(await view(user, row.id)).toMatchObject({
        merchant_city: "Round Rock",
        merchant_region: "TX",
        merchant_country: "US",
        merchant_latitude: "30.508300",
      });
    });
  });

  describe("the origin's worked examples", () => {
    it("an overwrite re-applies the merchant fields and keeps the location the first enrichment set", async () => {
      const { user, account } = await setUp();
      const row = await kit.transaction(user, account.id, { raw_description: "BLUE BOTTLE 0042" });
      await apply(user, account.id, {
        details: [
          {
            transaction: row.id,
            details: { merchant_name: "Blue Bottle", merchant_information: "MENLO PARK, CA" },
          },
        ],
      });
      expect(await view(user, row.id)).toMatchObject({
        merchant_city: "MENLO PARK",
        merchant_region: "CA",
        merchant_country: "US",
        description: "Blue Bottle -- MENLO PARK, CA",
      });

      const newer = {
        merchant_name: "Blue Bottle Coffee",
        merchant_information: "OAKLAND, CA",
        merchant_category: "Coffee Shops",
        merchant_category_code: "5814",
      };
      const body = await apply(user, account.id, {
        overwrite: true,
        details: [{ transaction: row.id, details: newer }],
      });
      expect(body.results).toEqual([{ transaction: row.id, status: "applied", warnings: [] }]);
      expect(await storedDetails(row.id)).toEqual({ details: newer, type: "object" });
      expect(await view(user, row.id)).toMatchObject({
        merchant_name: "Blue Bottle Coffee",
        merchant_category: "Coffee Shops",
        merchant_category_code: "5814",
        merchant_city: "MENLO PARK",
        merchant_region: "CA",
        merchant_country: "US",
        // Only the first enrichment recomposes the description (operations.md, the origin).
        description: "Blue Bottle -- MENLO PARK, CA",
      });
    });

    it("keeps a city the user entered and fills the empty region and country from CITY, ST", async () => {
      const { user, account } = await setUp();
      const row = await kit.transaction(user, account.id, { merchant_city: "Palo Alto" });
      expect(await view(user, row.id)).toMatchObject({ merchant_region: null, merchant_country: null });
      await apply(user, account.id, {
        details: [
          {
            transaction: row.id,
            details: { merchant_name: "Blue Bottle", merchant_information: "MENLO PARK, CA" },
          },
        ],
      });
      expect(await view(user, row.id)).toMatchObject({
        merchant_name: "Blue Bottle",
        merchant_city: "Palo Alto",
        merchant_region: "CA",
        merchant_country: "US",
        description: "Blue Bottle -- Palo Alto, CA",
      });
    });
  });

  describe("categories and auto_spend", () => {
    it("seeds the category of an uncategorised row and its allocations; an unknown name warns", async () => {
      const { user, account } = await setUp();
      const groceries = await kit.category("Food & Drink", "Groceries");
      const rent = await kit.category("Home", "Rent");
      const plain = await kit.transaction(user, account.id);
      const unknown = await kit.transaction(user, account.id);
      const categorised = await kit.transaction(user, account.id, { category: rent });

      const body = await apply(user, account.id, {
        details: [
          { transaction: plain.id, details: {}, category: "  food & DRINK :groceries " },
          { transaction: unknown.id, details: {}, category: "Food & Drink : Caviar" },
          { transaction: categorised.id, details: {}, category: "Food & Drink : Groceries" },
        ],
      });
      expect(body.results).toEqual([
        { transaction: plain.id, status: "applied", warnings: [] },
        {
          transaction: unknown.id,
          status: "applied",
          warnings: ['Unknown category "Food & Drink : Caviar"; the transaction is left unassigned.'],
        },
        { transaction: categorised.id, status: "applied", warnings: [] },
      ]);
      const seeded = await view(user, plain.id);
      expect(seeded).toMatchObject({ category: groceries, category_full_name: "Food & Drink : Groceries" });
      expect(seeded.allocations.map((a) => a.category)).toEqual([groceries]);
      const left = await view(user, unknown.id);
      expect(left).toMatchObject({ category: null, has_details: true });
      expect(left.allocations[0]?.category).toBeNull();
      expect((await view(user, categorised.id)).category).toBe(rent);
      await kit.ledgerHolds(account.id);
    });

    it("routes the Unallocated part of a newly categorised row to the one budget listing it", async () => {
      const { user, account } = await setUp();
      const food = await kit.budget(account.id, { balance: "0", autoSpend: ["Food & Drink : Groceries"] });
      const fun = await kit.budget(account.id, { balance: "0" });
      // The routed row is older than another one, so later running balances must move too.
      const routed = await kit.transaction(user, account.id, {
        amount: "-100.00",
        transaction_date: "2026-03-01T12:00:00Z",
      });
      const later = await kit.transaction(user, account.id, {
        amount: "-5.00",
        transaction_date: "2026-03-05T12:00:00Z",
      });
      const split = await t
        .as(user)
        .call(transactionRoutes.split, { id: routed.id, splits: { [fun]: "30.00" } });
      expect(split.statusCode, split.body).toBe(200);
      expect(await kit.budgetBalance(account.unallocated)).toBe("925.00");

      const body = await apply(user, account.id, {
        details: [{ transaction: routed.id, details: GROCERY_DETAILS, category: "Food & Drink : Groceries" }],
      });
      expect(body.results[0]).toEqual({ transaction: routed.id, status: "applied", warnings: [] });
      expect(await kit.budgetBalance(food)).toBe("-70.00");
      expect(await kit.budgetBalance(fun)).toBe("-30.00");
      expect(await kit.budgetBalance(account.unallocated)).toBe("995.00");
      expect(await kit.balances(user, account.id)).toEqual({ posted: "895.00", available: "895.00" });
      const allocations = (await view(user, routed.id)).allocations.map((a) => [
        a.budget,
        a.amount,
        a.budget_balance,
      ]);
      expect(allocations).toEqual(
        expect.arrayContaining([
          [food, "-70.00", "-70.00"],
          [fun, "-30.00", "-30.00"],
        ]),
      );
      expect((await view(user, later.id)).allocations[0]?.budget_balance).toBe("995.00");
      await kit.ledgerHolds(account.id);
    });

    it("routes once when a row is named twice, and not at all when two budgets list the category", async () => {
      const { user, account } = await setUp();
      const food = await kit.budget(account.id, { balance: "0", autoSpend: ["Food & Drink : Groceries"] });
      const row = await kit.transaction(user, account.id, { amount: "-20.00" });
      await apply(user, account.id, {
        overwrite: true,
        details: [
          { transaction: row.id, details: {}, category: "Food & Drink : Groceries" },
          { transaction: row.id, details: {}, category: "Food & Drink : Groceries" },
        ],
      });
      expect(await kit.budgetBalance(food)).toBe("-20.00");
      expect(await kit.budgetBalance(account.unallocated)).toBe("1000.00");
      await kit.ledgerHolds(account.id);

      await kit.budget(account.id, { autoSpend: ["Food & Drink : Restaurants"] });
      await kit.budget(account.id, { autoSpend: ["Food & Drink : Restaurants"] });
      const ambiguous = await kit.transaction(user, account.id, { amount: "-8.00" });
      await apply(user, account.id, {
        details: [{ transaction: ambiguous.id, details: {}, category: "Food & Drink : Restaurants" }],
      });
      const seen = await view(user, ambiguous.id);
      expect(seen.category_full_name).toBe("Food & Drink : Restaurants");
      expect(seen.allocations[0]?.budget).toBe(account.unallocated);
      await kit.ledgerHolds(account.id);
    });
  });

  describe("access and input", () => {
    it("answers 404 for another user's account or an unknown one, changing nothing", async () => {
      const { user, account } = await setUp();
      const row = await kit.transaction(user, account.id);
      const intruder = await t.user();
      const payload = { details: [{ transaction: row.id, details: GROCERY_DETAILS }] };
      for (const [who, id] of [
        [intruder, account.id],
        [user, UNKNOWN],
      ] as const) {
        const response = await send(who, id, payload);
        expect(response.statusCode, response.body).toBe(404);
        expect(response.json<{ code: string }>().code).toBe("not_found");
      }
      expect((await view(user, row.id)).has_details).toBe(false);
    });

    it("refuses an invalid item with 400 on its dotted path and applies none of the others", async () => {
      const { user, account } = await setUp();
      const row = await kit.transaction(user, account.id);
      const cases: [Record<string, unknown>, string][] = [
        [
          {
            details: [
              { transaction: row.id, details: GROCERY_DETAILS },
              { transaction: row.id, details: {} },
              { transaction: "not-a-uuid", details: {} },
            ],
          },
          "details.2.transaction",
        ],
        [{ details: [{ transaction: row.id, details: "text" }] }, "details.0.details"],
        [{ details: [{ transaction: row.id, details: [] }] }, "details.0.details"],
        [{ details: [{ transaction: row.id }] }, "details.0.details"],
        [{ details: [{ transaction: row.id, details: {}, category: 7 }] }, "details.0.category"],
        [
          { details: [{ transaction: row.id, details: { merchant_name: "a\u0000b" } }] },
          "details.0.details.merchant_name",
        ],
        // jsonb holds neither a lone surrogate nor (safely) any depth of nesting: 400, not 500.
        [{ details: [{ transaction: row.id, details: { merchant_name: "a\ud800b" } }] }, "details.0.details"],
        [{ details: [{ transaction: row.id, details: { "\udc00": 1 } }] }, "details.0.details"],
        [{ details: [{ transaction: row.id, details: { deep: nested(64) } }] }, "details.0.details"],
        [{ overwrite: "maybe", details: [] }, "overwrite"],
        [{}, "details"],
      ];
      for (const [index, [payload, field]] of cases.entries()) {
        const response = await send(user, account.id, payload);
        expect(response.statusCode, `case ${index}`).toBe(400);
        expect(Object.keys(response.json()), `case ${index}`).toContain(field);
      }
      expect(await view(user, row.id)).toMatchObject({ has_details: false, merchant_name: null });
    });

    it("takes a record nested 64 levels deep", async () => {
      const { user, account } = await setUp();
      const row = await kit.transaction(user, account.id);
      const details = { deep: nested(63) };
      await apply(user, account.id, { details: [{ transaction: row.id, details }] });
      expect(await storedDetails(row.id)).toEqual({ details, type: "object" });
    });

    it("works with an API key", async () => {
      const { user, account } = await setUp();
      const row = await kit.transaction(user, account.id);
      const key = await t.apiKey(user);
      const response = await send(key, account.id, {
        details: [{ transaction: row.id, details: GROCERY_DETAILS }],
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().applied).toBe(1);
    });
  });
});
