import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { internalTransactionRoutes } from "@allot/contract/internal-transactions/routes";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { budgets } from "@allot/db/schema/budgets";
import { testEngines } from "@allot/db/testing/test-databases";
import { createBank } from "@allot/domain/banks/create-bank";
import { verifyLedger } from "@allot/domain/ledger/verify-ledger";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { type TestUser, useTestApp } from "../../../test/testing/test-app";
import type { CallInput } from "../../../test/testing/test-client";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const URL_PATH = "/api/v1/internal-transactions/";

describe.each(testEngines())("internal transactions over HTTP (%s)", (engine) => {
  const t = useTestApp(engine);
  let bankId: string;
  /** Accounts a test touched: each must still pass verifyLedger afterwards. */
  const touched = new Set<string>();

  beforeAll(async () => {
    bankId = (await createBank(internalContext(t.db, "cli"), { name: "Transfer Bank", currency: "EUR" })).id;
  });
  afterEach(async () => {
    for (const accountId of touched) expect(await verifyLedger(t.db, accountId)).toEqual([]);
    touched.clear();
  });

  async function account(user: TestUser, available = "100.00") {
    const response = await t.as(user).call(bankAccountRoutes.create, {
      name: "Checking",
      bank: bankId,
      available_balance: available,
      posted_balance: available,
    });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    touched.add(body.id);
    return { id: body.id as string, unallocated: body.unallocated_budget as string };
  }

  async function budget(accountId: string, values: Partial<typeof budgets.$inferInsert> = {}) {
    const [row] = await t.db
      .insert(budgets)
      .values({
        bankAccountId: accountId,
        name: "Holiday",
        budgetType: "G",
        fundingType: "F",
        targetBalance: "100",
        ...values,
      })
      .returning();
    if (!row) throw new Error("no budget");
    return row.id;
  }

  const budgetRow = async (id: string) => {
    const [row] = await t.db.select().from(budgets).where(eq(budgets.id, id));
    return row;
  };

  const transfer = (user: TestUser, payload: Record<string, unknown>) =>
    t.as(user).callUnchecked(internalTransactionRoutes.create, payload);

  async function transferred(user: TestUser, payload: Record<string, unknown>) {
    const response = await transfer(user, payload);
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  type Query = CallInput<typeof internalTransactionRoutes.list>;
  const list = (user: TestUser, query: Query = {}) => t.as(user).call(internalTransactionRoutes.list, query);

  describe("create", () => {
    it("moves money between two budgets, records the caller and both running balances", async () => {
      const user = await t.user();
      const a = await account(user);
      const goal = await budget(a.id);
      const body = await transferred(user, {
        bank_account: a.id,
        amount: "30.5",
        src_budget: a.unallocated,
        dst_budget: goal,
      });
      expect(body).toEqual({
        id: expect.stringMatching(UUID),
        bank_account: a.id,
        amount: "30.50",
        amount_currency: "EUR",
        src_budget: a.unallocated,
        dst_budget: goal,
        actor: user.id,
        effective_date: expect.stringMatching(ISO_DATE_TIME),
        src_budget_balance: "69.50",
        src_budget_balance_currency: "EUR",
        dst_budget_balance: "30.50",
        dst_budget_balance_currency: "EUR",
        created_at: expect.stringMatching(ISO_DATE_TIME),
        modified_at: expect.stringMatching(ISO_DATE_TIME),
      });
      expect(Math.abs(Date.parse(body.effective_date) - Date.now())).toBeLessThan(60_000);
      expect(await budgetRow(a.unallocated)).toMatchObject({ balance: "69.50" });
      expect(await budgetRow(goal)).toMatchObject({ balance: "30.50", fundedAmount: "30.50" });
      // Moving money between budgets leaves the account's balances alone.
      const [row] = await t.db.select().from(bankAccounts).where(eq(bankAccounts.id, a.id));
      expect(row).toMatchObject({ availableBalance: "100.00", postedBalance: "100.00" });

      const fetched = await t.as(user).call(internalTransactionRoutes.get, { id: body.id });
      expect(fetched.statusCode).toBe(200);
      expect(fetched.json()).toEqual(body);
    });

    it("accepts the account's currency in any case, a number amount and a form-encoded body", async () => {
      const user = await t.user();
      const a = await account(user);
      const goal = await budget(a.id);
      const json = await transferred(user, {
        bank_account: a.id,
        amount: 12,
        amount_currency: "eur",
        src_budget: a.unallocated,
        dst_budget: goal,
      });
      expect(json.amount).toBe("12.00");
      const form = await t.inject({
        method: "POST",
        url: "/api/v1/internal-transactions/",
        headers: { authorization: user.bearer, "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams({
          bank_account: a.id,
          amount: "3.25",
          src_budget: goal,
          dst_budget: a.unallocated,
        }).toString(),
      });
      expect(form.statusCode, form.body).toBe(201);
      expect(form.json()).toMatchObject({
        amount: "3.25",
        src_budget_balance: "8.75",
        dst_budget_balance: "91.25",
      });
    });

    it("lets the source go negative", async () => {
      const user = await t.user();
      const a = await account(user, "10.00");
      const goal = await budget(a.id);
      const body = await transferred(user, {
        bank_account: a.id,
        amount: "25.00",
        src_budget: a.unallocated,
        dst_budget: goal,
      });
      expect(body).toMatchObject({ src_budget_balance: "-15.00", dst_budget_balance: "25.00" });
    });

    it("follows a Goal's funded_amount both ways and latches complete at the target", async () => {
      const user = await t.user();
      const a = await account(user, "500.00");
      const goal = await budget(a.id, { targetBalance: "100" });
      const capped = await budget(a.id, { name: "Food", budgetType: "C", fundingAmount: "50" });
      const move = (src: string, dst: string, amount: string) =>
        transferred(user, { bank_account: a.id, amount, src_budget: src, dst_budget: dst });

      await move(a.unallocated, goal, "60.00");
      expect(await budgetRow(goal)).toMatchObject({ fundedAmount: "60.00", complete: false });
      await move(goal, a.unallocated, "10.00");
      expect(await budgetRow(goal)).toMatchObject({
        balance: "50.00",
        fundedAmount: "50.00",
        complete: false,
      });
      await move(a.unallocated, goal, "50.00");
      expect(await budgetRow(goal)).toMatchObject({ fundedAmount: "100.00", complete: true });
      // Spending the goal down does not unlatch it.
      await move(goal, capped, "30.00");
      expect(await budgetRow(goal)).toMatchObject({
        balance: "70.00",
        fundedAmount: "70.00",
        complete: true,
      });
      // Only goals track funding: the capped budget and Unallocated keep funded_amount at zero.
      expect(await budgetRow(capped)).toMatchObject({
        balance: "30.00",
        fundedAmount: "0.00",
        complete: false,
      });
      expect(await budgetRow(a.unallocated)).toMatchObject({ balance: "400.00", fundedAmount: "0.00" });
    });

    it("keeps running balances right when an older transfer arrives late", async () => {
      const user = await t.user();
      const a = await account(user);
      const goal = await budget(a.id);
      const later = await transferred(user, {
        bank_account: a.id,
        amount: "10.00",
        src_budget: a.unallocated,
        dst_budget: goal,
        effective_date: "2026-03-10T12:00:00+02:00",
      });
      expect(later.effective_date).toBe("2026-03-10T10:00:00.000Z");
      const earlier = await transferred(user, {
        bank_account: a.id,
        amount: "5.00",
        src_budget: a.unallocated,
        dst_budget: goal,
        effective_date: "2026-03-01",
      });
      expect(earlier).toMatchObject({
        effective_date: "2026-03-01T08:00:00.000Z", // the start of that day in Los Angeles

        src_budget_balance: "95.00",
        dst_budget_balance: "5.00",
      });
      const refreshed = await t.as(user).call(internalTransactionRoutes.get, { id: later.id });
      expect(refreshed.json()).toMatchObject({ src_budget_balance: "85.00", dst_budget_balance: "15.00" });
    });

    it("refuses an amount that is not positive or not a decimal, on amount", async () => {
      const user = await t.user();
      const a = await account(user);
      const goal = await budget(a.id);
      for (const amount of ["0", "0.00", "-5.00", "abc", "1.234", ""]) {
        const response = await transfer(user, {
          bank_account: a.id,
          amount,
          src_budget: a.unallocated,
          dst_budget: goal,
        });
        expect(response.statusCode, `${amount}: ${response.body}`).toBe(400);
        expect(Object.keys(response.json())).toEqual(["amount"]);
      }
      expect(await budgetRow(goal)).toMatchObject({ balance: "0.00" });
    });

    it("refuses another currency, on amount_currency", async () => {
      const user = await t.user();
      const a = await account(user);
      const goal = await budget(a.id);
      const response = await transfer(user, {
        bank_account: a.id,
        amount: "1.00",
        amount_currency: "USD",
        src_budget: a.unallocated,
        dst_budget: goal,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ amount_currency: ["Must be the bank account's currency, 'EUR'."] });
    });

    it("refuses the same budget on both sides", async () => {
      const user = await t.user();
      const a = await account(user);
      const response = await transfer(user, {
        bank_account: a.id,
        amount: "1.00",
        src_budget: a.unallocated,
        dst_budget: a.unallocated,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ dst_budget: ["Must be a different budget from src_budget."] });
    });

    it("refuses budgets of another account, unknown budgets and archived budgets, on the field", async () => {
      const user = await t.user();
      const a = await account(user);
      const b = await account(user);
      const goal = await budget(a.id);
      const otherAccountsGoal = await budget(b.id);
      const archived = await budget(a.id, { archived: true, archivedAt: new Date() });
      const unknown = "00000000-0000-4000-8000-000000000000";

      const foreignSource = await transfer(user, {
        bank_account: a.id,
        amount: "1.00",
        src_budget: otherAccountsGoal,
        dst_budget: goal,
      });
      expect(foreignSource.statusCode).toBe(400);
      expect(foreignSource.json()).toEqual({
        src_budget: [`Invalid pk "${otherAccountsGoal}" - object does not exist.`],
      });
      const unknownDestination = await transfer(user, {
        bank_account: a.id,
        amount: "1.00",
        src_budget: goal,
        dst_budget: unknown,
      });
      expect(unknownDestination.statusCode).toBe(400);
      expect(unknownDestination.json()).toEqual({
        dst_budget: [`Invalid pk "${unknown}" - object does not exist.`],
      });
      for (const [src, dst, field] of [
        [archived, goal, "src_budget"],
        [goal, archived, "dst_budget"],
      ] as const) {
        const response = await transfer(user, {
          bank_account: a.id,
          amount: "1.00",
          src_budget: src,
          dst_budget: dst,
        });
        expect(response.statusCode).toBe(400);
        expect(Object.keys(response.json())).toEqual([field]);
      }
      expect(await budgetRow(goal)).toMatchObject({ balance: "0.00" });
      expect(await budgetRow(otherAccountsGoal)).toMatchObject({ balance: "0.00" });
    });

    it("answers 400 on bank_account for another user's account, exactly as for an unknown one", async () => {
      const owner = await t.user();
      const intruder = await t.user();
      const a = await account(owner);
      const goal = await budget(a.id);
      const unknown = "00000000-0000-4000-8000-000000000001";
      for (const id of [a.id, unknown]) {
        const response = await transfer(intruder, {
          bank_account: id,
          amount: "1.00",
          src_budget: a.unallocated,
          dst_budget: goal,
        });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ bank_account: [`Invalid pk "${id}" - object does not exist.`] });
      }
      expect(await budgetRow(a.unallocated)).toMatchObject({ balance: "100.00" });
    });

    it("names every missing required field", async () => {
      const user = await t.user();
      const response = await transfer(user, {});
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json()).sort()).toEqual([
        "amount",
        "bank_account",
        "dst_budget",
        "src_budget",
      ]);
      const badDate = await transfer(user, {
        bank_account: "00000000-0000-4000-8000-000000000001",
        amount: "1.00",
        src_budget: "00000000-0000-4000-8000-000000000002",
        dst_budget: "00000000-0000-4000-8000-000000000003",
        effective_date: "yesterday",
      });
      expect(badDate.statusCode).toBe(400);
      expect(Object.keys(badDate.json())).toEqual(["effective_date"]);
    });
  });

  describe("access", () => {
    it("answers 401 without credentials on every endpoint", async () => {
      for (const [route, input] of [
        [internalTransactionRoutes.list, {}],
        [internalTransactionRoutes.create, {}],
        [internalTransactionRoutes.get, { id: "00000000-0000-4000-8000-000000000000" }],
      ] as const) {
        const response = await t.anonymous.callUnchecked(route, input);
        expect(response.statusCode, `${route.method} ${route.path}`).toBe(401);
      }
    });

    it("hides another user's transfer: 404 on retrieve, absent from the list", async () => {
      const owner = await t.user();
      const intruder = await t.user();
      const a = await account(owner);
      const goal = await budget(a.id);
      const body = await transferred(owner, {
        bank_account: a.id,
        amount: "1.00",
        src_budget: a.unallocated,
        dst_budget: goal,
      });
      const response = await t.as(intruder).call(internalTransactionRoutes.get, { id: body.id });
      expect(response.statusCode).toBe(404);
      expect(response.json<{ code: string }>().code).toBe("not_found");
      expect((await list(intruder)).json()).toMatchObject({ count: 0, results: [] });
      expect((await list(intruder, { bank_account: a.id })).json()).toMatchObject({ count: 0 });
      const malformed = await t.as(owner).call(internalTransactionRoutes.get, { id: "not-a-uuid" });
      expect([400, 404]).toContain(malformed.statusCode);
    });

    it("is write-once: PUT, PATCH and DELETE answer 405 and change nothing", async () => {
      const user = await t.user();
      const a = await account(user);
      const goal = await budget(a.id);
      const body = await transferred(user, {
        bank_account: a.id,
        amount: "7.00",
        src_budget: a.unallocated,
        dst_budget: goal,
      });
      // Raw: wrong methods, with and without the trailing slash.
      for (const method of ["PUT", "PATCH", "DELETE"] as const) {
        for (const url of [
          `/api/v1/internal-transactions/${body.id}/`,
          `/api/v1/internal-transactions/${body.id}`,
          URL_PATH,
        ]) {
          const response = await t.inject({
            method,
            url,
            headers: { authorization: user.bearer },
            payload: { amount: "1.00" },
          });
          expect(response.statusCode, `${method} ${url}`).toBe(405);
          expect(response.json().code).toBe("method_not_allowed");
        }
      }
      const after = await t.as(user).call(internalTransactionRoutes.get, { id: body.id });
      expect(after.json()).toEqual(body);
      expect(await budgetRow(goal)).toMatchObject({ balance: "7.00" });
    });
  });

  describe("list", () => {
    it("filters by account, budget (either side), source, destination and effective date; orders and pages", async () => {
      const user = await t.user();
      const a = await account(user, "1000.00");
      const b = await account(user, "1000.00");
      const g1 = await budget(a.id, { name: "One" });
      const g2 = await budget(a.id, { name: "Two" });
      const gb = await budget(b.id, { name: "Other" });
      const move = (accountId: string, src: string, dst: string, effective_date: string) =>
        transferred(user, {
          bank_account: accountId,
          amount: "1.00",
          src_budget: src,
          dst_budget: dst,
          effective_date,
        });
      const t1 = await move(a.id, a.unallocated, g1, "2026-01-05T10:00:00Z");
      const t2 = await move(a.id, g1, g2, "2026-02-05T10:00:00Z");
      const t3 = await move(a.id, g2, a.unallocated, "2026-03-05T10:00:00Z");
      const t4 = await move(b.id, b.unallocated, gb, "2026-02-20T10:00:00Z");
      const ids = async (query: Query = {}) => {
        const response = await list(user, query);
        expect(response.statusCode, response.body).toBe(200);
        return response.json().results.map((r) => r.id);
      };

      expect(await ids()).toEqual([t1.id, t2.id, t3.id, t4.id]);
      expect(await ids({ ordering: "created_at" })).toEqual([t1.id, t2.id, t3.id, t4.id]);
      expect(await ids({ ordering: "-created_at" })).toEqual([t4.id, t3.id, t2.id, t1.id]);
      expect(await ids({ bank_account: a.id })).toEqual([t1.id, t2.id, t3.id]);
      expect(await ids({ bank_account: b.id })).toEqual([t4.id]);
      expect(await ids({ budget: g1 })).toEqual([t1.id, t2.id]);
      expect(await ids({ budget: g2 })).toEqual([t2.id, t3.id]);
      expect(await ids({ src_budget: g1 })).toEqual([t2.id]);
      expect(await ids({ dst_budget: g1 })).toEqual([t1.id]);
      expect(await ids({ src_budget: g2, dst_budget: a.unallocated })).toEqual([t3.id]);
      expect(await ids({ date_from: "2026-02-05T10:00:00Z" })).toEqual([t2.id, t3.id, t4.id]);
      expect(await ids({ date_to: "2026-02-05T10:00:00Z" })).toEqual([t1.id, t2.id]);
      // A bare date_to includes that whole day.
      expect(await ids({ date_from: "2026-02-01", date_to: "2026-02-20" })).toEqual([t2.id, t4.id]);
      expect(await ids({ date_from: "2026-02-01", date_to: "2026-02-28", bank_account: a.id })).toEqual([
        t2.id,
      ]);

      const page = await list(user, { page_size: 3, page: 2, ordering: "created_at" });
      expect(page.json()).toMatchObject({ count: 4, next: null, results: [{ id: t4.id }] });
      expect(page.json().previous).toContain("page=1");
      expect((await list(user, { page_size: 3, page: 3 })).statusCode).toBe(404);

      const badFilter = await list(user, { budget: "nope" });
      expect(badFilter.statusCode).toBe(400);
      expect(Object.keys(badFilter.json())).toEqual(["budget"]);
      const badOrdering = await t
        .as(user)
        .callUnchecked(internalTransactionRoutes.list, { ordering: "amount" });
      expect(badOrdering.statusCode).toBe(400);
      expect(Object.keys(badOrdering.json())).toEqual(["ordering"]);
      const badDate = await list(user, { date_from: "soon" });
      expect(badDate.statusCode).toBe(400);
      expect(Object.keys(badDate.json())).toEqual(["date_from"]);
    });
  });
});
