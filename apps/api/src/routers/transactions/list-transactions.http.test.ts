import { transactionRoutes } from "@allot/contract/transactions/routes";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { transactionAllocations } from "@allot/db/schema/transaction-allocations";
import { transactions } from "@allot/db/schema/transactions";
import { testEngines } from "@allot/db/testing/test-databases";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type TestUser, useTestApp } from "../../../test/testing/test-app";
import type { CallInput } from "../../../test/testing/test-client";
import { transactionKit } from "../../../test/testing/transaction-test-kit";

describe.each(testEngines())("transaction list over HTTP (%s)", (engine) => {
  const t = useTestApp(engine);
  const kit = transactionKit(t);

  let user: TestUser;
  let account: { id: string; unallocated: string };
  let second: { id: string; unallocated: string };
  let budget: string;
  let groceries: string;
  let rent: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    user = await t.user();
    const stranger = await t.user();
    account = await kit.account(user);
    second = await kit.account(user);
    const foreign = await kit.account(stranger);
    await kit.transaction(stranger, foreign.id, { raw_description: "STRANGER GROCER" });
    budget = await kit.budget(account.id);
    groceries = await kit.category("Food & Drink", "Groceries");
    rent = await kit.category("Home", "Rent");

    ids.grocer = (
      await kit.transaction(user, account.id, {
        amount: "-50.00",
        transaction_date: "2026-01-05T10:00:00Z",
        posted_date: "2026-01-06T10:00:00Z",
        raw_description: "SAFEWAY 1234",
        category: groceries,
        transaction_type: "pin_purchase",
        merchant_city: "Portland",
        merchant_region: "OR",
      })
    ).id;
    ids.rent = (
      await kit.transaction(user, account.id, {
        amount: "-1200.00",
        transaction_date: "2026-02-01T00:00:00Z",
        raw_description: "ACH LANDLORD",
        category: rent,
        transaction_type: "ach",
      })
    ).id;
    ids.pay = (
      await kit.transaction(user, account.id, {
        amount: "2500.00",
        transaction_date: "2026-02-15T00:00:00Z",
        posted_date: "2026-02-16T00:00:00Z",
        raw_description: "PAYROLL ACME",
        transaction_type: "ach",
      })
    ).id;
    ids.pending = (
      await kit.transaction(user, account.id, {
        amount: "-8.00",
        transaction_date: "2026-03-01T00:00:00Z",
        raw_description: "CAFE 50% OFF",
        description: "Coffee",
        pending: true,
      })
    ).id;
    ids.other = (
      await kit.transaction(user, second.id, {
        amount: "-3.00",
        transaction_date: "2026-01-20T00:00:00Z",
        raw_description: "PARKING",
        transaction_type: "fee",
      })
    ).id;
    // Read-only fields as an import would set them.
    await t.db
      .update(transactions)
      .set({
        details: { merchant_name: "Safeway" },
        merchantName: "Safeway Stores",
        merchantIntermediary: "Square Inc",
        merchantCategoryCode: "5411",
        virtualCardNumber: "XXXX-XXXX-XXXX-4242",
        party: "Safeway Party",
      })
      .where(eq(transactions.id, ids.grocer as string));
    await t.db
      .update(transactions)
      .set({ party: "Acme Payroll" })
      .where(eq(transactions.id, ids.pay as string));
    const split = await t
      .as(user)
      .call(transactionRoutes.split, { id: ids.rent, splits: { [budget]: "200.00" } });
    if (split.statusCode !== 200) throw new Error(split.body);
  });

  const list = async (query: CallInput<typeof transactionRoutes.list> = {}) => {
    const response = await t.as(user).call(transactionRoutes.list, query);
    expect(response.statusCode, `${JSON.stringify(query)}: ${response.body}`).toBe(200);
    return response.json();
  };
  const idsOf = async (query: CallInput<typeof transactionRoutes.list>) =>
    (await list(query)).results.map((row) => Object.keys(ids).find((k) => ids[k] === row.id));

  it("lists only the caller's transactions, newest transaction date first, allocations embedded oldest first", async () => {
    const body = await list();
    expect(body.count).toBe(5);
    expect(body.results.map((r: { id: string }) => r.id)).toEqual([
      ids.pending,
      ids.pay,
      ids.rent,
      ids.other,
      ids.grocer,
    ]);
    const rentRow = body.results[2];
    expect(rentRow?.allocations.map((a) => [a.budget, a.amount])).toEqual([
      [account.unallocated, "-1000.00"],
      [budget, "-200.00"],
    ]);
    const grocer = body.results[4];
    expect(grocer).toMatchObject({
      has_details: true,
      merchant_name: "Safeway Stores",
      category_full_name: "Food & Drink : Groceries",
    });
  });

  it("filters by account, budget, category and category group", async () => {
    expect(await idsOf({ bank_account: second.id })).toEqual(["other"]);
    expect(await idsOf({ budget })).toEqual(["rent"]);
    expect(await idsOf({ budget: account.unallocated })).toEqual(["pending", "pay", "rent", "grocer"]);
    expect(await idsOf({ category: groceries })).toEqual(["grocer"]);
    expect(await idsOf({ category_group: "food & drink" })).toEqual(["grocer"]);
    expect(await idsOf({ category_group: "Home" })).toEqual(["rent"]);
  });

  it("filters by merchant fields and the virtual card's last four digits", async () => {
    expect(await idsOf({ merchant_category_code: "5411" })).toEqual(["grocer"]);
    expect(await idsOf({ merchant_category_code: "5812" })).toEqual([]);
    expect(await idsOf({ merchant_city: "portland" })).toEqual(["grocer"]);
    expect(await idsOf({ merchant_region: "or" })).toEqual(["grocer"]);
    expect(await idsOf({ merchant_name: "safeway" })).toEqual(["grocer"]);
    expect(await idsOf({ merchant_intermediary: "square" })).toEqual(["grocer"]);
    expect(await idsOf({ virtual_card_last4: "4242" })).toEqual(["grocer"]);
    expect(await idsOf({ virtual_card_last4: "1111" })).toEqual([]);
  });

  it("filters by transaction and posted date ranges (a bare date_to takes in the whole day)", async () => {
    // Bare dates are days of the account's calendar, Los Angeles: rent, at 2026-02-01T00:00Z, is
    // still January 31 there, and pay, posted at 2026-02-16T00:00Z, February 15.
    expect(await idsOf({ date_from: "2026-02-01" })).toEqual(["pending", "pay"]);
    expect(await idsOf({ date_from: "2026-01-31", date_to: "2026-01-31" })).toEqual(["rent"]);
    expect(await idsOf({ date_to: "2026-02-01" })).toEqual(["rent", "other", "grocer"]);
    expect(await idsOf({ date_from: "2026-01-10", date_to: "2026-02-14T23:59:59Z" })).toEqual([
      "rent",
      "other",
    ]);
    expect(await idsOf({ posted_date_from: "2026-01-06T10:00:00Z", posted_date_to: "2026-01-06" })).toEqual([
      "grocer",
    ]);
    expect(await idsOf({ posted_date_from: "2026-02-16" })).toEqual(["pending"]);
    expect(await idsOf({ posted_date_from: "2026-02-16T00:00:00Z" })).toEqual(["pending", "pay"]);
  });

  it("filters by a signed amount range, inclusive at both ends and exact to the cent", async () => {
    expect(await idsOf({ amount_min: "-50", amount_max: "-8.00" })).toEqual(["pending", "grocer"]);
    expect(await idsOf({ amount_min: "-49.99", amount_max: "-8.01" })).toEqual([]);
    expect(await idsOf({ amount_max: "-50.01" })).toEqual(["rent"]);
    expect(await idsOf({ amount_max: "-1200" })).toEqual(["rent"]);
    expect(await idsOf({ amount_min: "-7.99" })).toEqual(["pay", "other"]);
    expect(await idsOf({ amount_min: "2500.00" })).toEqual(["pay"]);
    expect(await idsOf({ amount_min: "2500.01" })).toEqual([]);
    expect(await idsOf({ amount_min: "-50.00", amount_max: "-50.00" })).toEqual(["grocer"]);
    expect(await idsOf({ amount_min: "0", bank_account: account.id })).toEqual(["pay"]);
    // Combined with other filters and a page: the count is of the matching rows.
    const page = await list({ amount_max: "0", pending: false, page_size: 1, page: 2 });
    expect([page.count, page.results[0]?.id]).toEqual([3, ids.other]);
  });

  it("refuses a bad amount bound with 400 on it, and a minimum above the maximum on amount_max", async () => {
    for (const query of [
      { amount_min: "ten" },
      { amount_min: "1.234" },
      { amount_max: "1e3" },
      { amount_max: "1234567890123" },
      { amount_min: "--5" },
    ]) {
      const response = await t.as(user).callUnchecked(transactionRoutes.list, query);
      expect(response.statusCode, JSON.stringify(query)).toBe(400);
      expect(Object.keys(response.json<Record<string, unknown>>()), JSON.stringify(query)).toEqual(
        Object.keys(query),
      );
    }
    const swapped = await t.as(user).call(transactionRoutes.list, { amount_min: "-8", amount_max: "-50" });
    expect(swapped.statusCode, swapped.body).toBe(400);
    expect(swapped.json()).toEqual({ amount_max: ["Must not be below amount_min."] });
  });

  it("filters by booleans, with false staying false", async () => {
    expect(await idsOf({ has_details: true })).toEqual(["grocer"]);
    expect(await idsOf({ has_details: false })).toEqual(["pending", "pay", "rent", "other"]);
    expect(await idsOf({ pending: true })).toEqual(["pending"]);
    expect(await idsOf({ pending: false })).toEqual(["pay", "rent", "other", "grocer"]);
    expect(await idsOf({ unallocated: true })).toEqual(["pending", "pay", "other", "grocer"]);
    expect(await idsOf({ unallocated: false })).toEqual(["rent"]);
    expect(await idsOf({ uncategorized: true })).toEqual(["pending", "pay", "other"]);
    expect(await idsOf({ uncategorized: false })).toEqual(["rent", "grocer"]);
  });

  it("filters by transaction type (empty means no filter) and searches descriptions and party", async () => {
    expect(await idsOf({ transaction_type: "ach" })).toEqual(["pay", "rent"]);
    expect(await idsOf({ transaction_type: "" })).toHaveLength(5);
    expect(await idsOf({ search: "landlord" })).toEqual(["rent"]);
    expect(await idsOf({ search: "coffee" })).toEqual(["pending"]);
    expect(await idsOf({ search: "acme payroll" })).toEqual(["pay"]);
    expect(await idsOf({ search: "50%" })).toEqual(["pending"]);
    expect(await idsOf({ search: "STRANGER" })).toEqual([]);
  });

  it("orders by transaction_date, amount and created_at, both ways", async () => {
    expect(await idsOf({ ordering: "transaction_date" })).toEqual([
      "grocer",
      "other",
      "rent",
      "pay",
      "pending",
    ]);
    expect(await idsOf({ ordering: "-transaction_date" })).toEqual([
      "pending",
      "pay",
      "rent",
      "other",
      "grocer",
    ]);
    expect(await idsOf({ ordering: "amount" })).toEqual(["rent", "grocer", "pending", "other", "pay"]);
    expect(await idsOf({ ordering: "-amount" })).toEqual(["pay", "other", "pending", "grocer", "rent"]);
    expect(await idsOf({ ordering: "created_at" })).toEqual(["grocer", "rent", "pay", "pending", "other"]);
    expect(await idsOf({ ordering: "-created_at" })).toEqual(["other", "pending", "pay", "rent", "grocer"]);
  });

  it("paginates, and a page past the last is 404", async () => {
    const first = await list({ page_size: 2 });
    expect(first.count).toBe(5);
    expect(first.results).toHaveLength(2);
    expect(first.next).toContain("page=2");
    const third = await list({ page_size: 2, page: 3 });
    expect(third.results).toHaveLength(1);
    expect(third.next).toBeNull();
    const past = await t.as(user).call(transactionRoutes.list, { page: 4, page_size: 2 });
    expect(past.statusCode).toBe(404);

    // A page_size above 500 is capped, and the links carry the capped size. 501 rows are written
    // straight to the tables (one Unallocated allocation each, and the account's kept count) for a
    // user of their own; balances are not moved, so this account's ledger is not checked.
    const many = await t.user();
    const bulk = await kit.account(many);
    const rows = await t.db
      .insert(transactions)
      .values(
        Array.from({ length: 501 }, (_, i) => ({
          bankAccountId: bulk.id,
          amount: "-1.00",
          transactionDate: new Date(Date.UTC(2026, 0, 1, 0, i)),
          postedDate: new Date(Date.UTC(2026, 0, 1, 0, i)),
          rawDescription: `ROW ${i}`,
          description: `ROW ${i}`,
        })),
      )
      .returning({ id: transactions.id });
    await t.db.insert(transactionAllocations).values(
      rows.map((row) => ({
        transactionId: row.id,
        bankAccountId: bulk.id,
        budgetId: bulk.unallocated,
        amount: "-1.00",
      })),
    );
    await t.db.update(bankAccounts).set({ transactionCount: 501 }).where(eq(bankAccounts.id, bulk.id));
    const capped = await t.as(many).call(transactionRoutes.list, { page_size: 100000 });
    expect(capped.statusCode, capped.body).toBe(200);
    const cappedBody = capped.json();
    expect(cappedBody.count).toBe(501);
    expect(cappedBody.results).toHaveLength(500);
    const next = new URL(String(cappedBody.next));
    expect([next.searchParams.get("page"), next.searchParams.get("page_size")]).toEqual(["2", "500"]);
    const last = await t.inject({
      url: `${next.pathname}${next.search}`,
      headers: { authorization: many.bearer },
    });
    expect(last.statusCode, last.body).toBe(200);
    expect(last.json().results).toHaveLength(1);
    expect(new URL(last.json().previous).searchParams.get("page_size")).toBe("500");
  });

  it("refuses bad filter values with 400 on the parameter", async () => {
    for (const query of [
      { bank_account: "nope" },
      { budget: "1" },
      { category: "x" },
      { date_from: "yesterday" },
      { posted_date_to: "2026-02-31x" },
      { pending: "perhaps" },
      { has_details: "2" },
      { unallocated: "maybe" },
      { uncategorized: "nah" },
      { transaction_type: "teleport" },
      { ordering: "description" },
      { virtual_card_last4: "42" },
      { page: "0" },
      { search: "x".repeat(201) },
      { merchant_name: "x".repeat(201) },
      { category_group: "x".repeat(201) },
      { posted_date_from: "soon" },
      { posted_date_from: "2026-02-30" },
      { date_to: "2026-13-01" },
      { date_to: "12:00" },
    ]) {
      const response = await t.as(user).callUnchecked(transactionRoutes.list, query);
      expect(response.statusCode, JSON.stringify(query)).toBe(400);
      expect(Object.keys(response.json<Record<string, unknown>>()), JSON.stringify(query)).toEqual(
        Object.keys(query),
      );
    }
  });
});
