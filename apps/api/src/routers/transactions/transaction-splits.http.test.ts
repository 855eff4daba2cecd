import { allocationRoutes } from "@allot/contract/allocations/routes";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { type TestUser, useTestApp } from "../../../test/testing/test-app";
import { transactionKit } from "../../../test/testing/transaction-test-kit";

describe.each(testEngines())("transaction splits over HTTP (%s)", (engine) => {
  const t = useTestApp(engine);
  const kit = transactionKit(t);

  const split = (user: TestUser, id: string, splits: Record<string, string>) =>
    t.as(user).call(transactionRoutes.split, { id, splits });
  type Allocation = { id: string; budget: string | null; amount: string; budget_balance: string };
  const summary = (rows: Allocation[]) => rows.map((a) => [a.budget, a.amount, a.budget_balance]);

  it("divides a debit among budgets with its sign, the remainder to Unallocated", async () => {
    const user = await t.user();
    const account = await kit.account(user);
    const food = await kit.budget(account.id, { balance: "0" });
    const fun = await kit.budget(account.id);
    const row = await kit.transaction(user, account.id, { amount: "-100.00" });

    const first = await split(user, row.id, { [food]: "60.00", [fun]: "15.5" });
    expect(first.statusCode, first.body).toBe(200);
    const allocations: Allocation[] = first.json();
    expect(allocations[0]?.id).toBe(row.allocations[0]?.id);
    // The kept Unallocated allocation is the oldest; the two new ones follow.
    expect(summary(allocations.slice(0, 1))).toEqual([[account.unallocated, "-24.50", "975.50"]]);
    expect(summary(allocations.slice(1))).toEqual(
      expect.arrayContaining([
        [food, "-60.00", "-60.00"],
        [fun, "-15.50", "-15.50"],
      ]),
    );
    expect(await kit.budgetBalance(food)).toBe("-60.00");
    expect(await kit.budgetBalance(account.unallocated)).toBe("975.50");
    expect(await kit.balances(user, account.id)).toEqual({ posted: "900.00", available: "900.00" });
    await kit.ledgerHolds(account.id);

    // Reconcile: food updated in place, fun removed, Unallocated takes the rest.
    const foodId = allocations.find((a) => a.budget === food)?.id;
    const second = await split(user, row.id, { [food]: "100" });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().map((a: Allocation) => [a.id, a.budget, a.amount])).toEqual([
      [foodId, food, "-100.00"],
    ]);
    expect(await kit.budgetBalance(fun)).toBe("0.00");
    expect(await kit.budgetBalance(account.unallocated)).toBe("1000.00");
    await kit.ledgerHolds(account.id);

    // {} moves everything back to Unallocated.
    const back = await split(user, row.id, {});
    expect(back.statusCode).toBe(200);
    expect(summary(back.json())).toEqual([[account.unallocated, "-100.00", "900.00"]]);
    expect(await kit.budgetBalance(food)).toBe("0.00");
    await kit.ledgerHolds(account.id);
  });

  it("splits a credit with a positive sign and keeps later snapshots right", async () => {
    const user = await t.user();
    const account = await kit.account(user);
    const savings = await kit.budget(account.id);
    const row = await kit.transaction(user, account.id, { amount: "300.00", transaction_date: "2026-01-01" });
    await kit.transaction(user, account.id, { amount: "-10.00", transaction_date: "2026-02-01" });
    const response = await split(user, row.id, { [savings]: "300.00" });
    expect(response.statusCode, response.body).toBe(200);
    expect(summary(response.json())).toEqual([[savings, "300.00", "300.00"]]);
    expect(await kit.budgetBalance(account.unallocated)).toBe("990.00");
    const listed = (await t.as(user).call(allocationRoutes.list, { budget: account.unallocated })).json();
    expect(listed.results.map((a: Allocation) => a.budget_balance)).toEqual(["990.00"]);
    await kit.ledgerHolds(account.id);
  });

  it("refuses over-total, non-positive, unknown, foreign and archived budgets with 400 on splits", async () => {
    const user = await t.user();
    const other = await t.user();
    const account = await kit.account(user);
    const mine = await kit.budget(account.id);
    const archived = await kit.budget(account.id, { archived: true });
    const sibling = await kit.account(user);
    const siblingBudget = await kit.budget(sibling.id);
    const foreign = await kit.budget((await kit.account(other)).id);
    const row = await kit.transaction(user, account.id, { amount: "-50.00" });
    for (const splits of [
      { [mine]: "50.01" },
      { [mine]: "30", [account.unallocated]: "30" },
      { [mine]: "0" },
      { [mine]: "-5.00" },
      { "00000000-0000-4000-8000-000000000000": "1.00" },
      { "not-a-uuid": "1.00" },
      { [siblingBudget]: "1.00" },
      { [foreign]: "1.00" },
      { [archived]: "1.00" },
    ] as Record<string, string>[]) {
      const response = await split(user, row.id, splits);
      expect(response.statusCode, JSON.stringify(splits)).toBe(400);
      expect(Object.keys(response.json()), JSON.stringify(splits)).toEqual(["splits"]);
    }
    const bad = await split(user, row.id, { [mine]: "1.234" });
    expect(bad.statusCode).toBe(400);
    const missing = await t.as(user).callUnchecked(transactionRoutes.split, { id: row.id });
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json())).toEqual(["splits"]);
    expect(await kit.budgetBalance(mine)).toBe("0.00");
    await kit.ledgerHolds(account.id);
  });

  it("caps splits at the account's budget count and at 1,000, with one short 400 on splits", async () => {
    const user = await t.user();
    const account = await kit.account(user);
    const mine = await kit.budget(account.id);
    const row = await kit.transaction(user, account.id, { amount: "-50.00" });
    const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;
    const mapOf = (size: number, value = "0.01") =>
      Object.fromEntries(Array.from({ length: size }, (_, n) => [uuid(n), value]));

    // Unallocated and one budget: a third key cannot name a budget of the account.
    const over = await split(user, row.id, { [mine]: "1.00", [account.unallocated]: "1.00", [uuid(1)]: "1" });
    expect(over.statusCode, over.body).toBe(400);
    expect(over.json()).toEqual({ splits: ["The account has 2 budgets; a split cannot name 3."] });

    // 70,000 keys once broke PostgreSQL's parameter limit (a 500); bad values must not give
    // one message each either.
    for (const splits of [mapOf(70_000), mapOf(70_000, "x"), mapOf(1_001)]) {
      const response = await split(user, row.id, splits);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ splits: ["Ensure this field has no more than 1000 budgets."] });
    }
    const form = await t.inject({
      method: "POST",
      url: `/api/v1/transactions/${row.id}/splits/`,
      headers: { authorization: user.bearer, "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ splits: JSON.stringify(mapOf(1_001)) }).toString(),
    });
    expect(form.statusCode, form.body).toBe(400);
    expect(Object.keys(form.json())).toEqual(["splits"]);

    const fine = await split(user, row.id, { [mine]: "20.00" });
    expect(fine.statusCode, fine.body).toBe(200);
    expect(await kit.budgetBalance(mine)).toBe("-20.00");
    await kit.ledgerHolds(account.id);
  });

  it("checks each amount before merging keys: a budget named twice in another case is refused", async () => {
    const user = await t.user();
    const account = await kit.account(user);
    const mine = await kit.budget(account.id);
    const row = await kit.transaction(user, account.id, { amount: "-50.00" });
    for (const splits of [
      { [mine]: "5", [mine.toUpperCase()]: "-2" },
      { [mine.toUpperCase()]: "-2", [mine]: "5" },
      { [mine]: "5", [mine.toUpperCase()]: "2" },
    ]) {
      const response = await split(user, row.id, splits);
      expect(response.statusCode, JSON.stringify(splits)).toBe(400);
      expect(Object.keys(response.json()), JSON.stringify(splits)).toEqual(["splits"]);
    }
    expect(await kit.budgetBalance(mine)).toBe("0.00");
    // One upper-case key alone names the same budget.
    const upper = await split(user, row.id, { [mine.toUpperCase()]: "5" });
    expect(upper.statusCode, upper.body).toBe(200);
    expect(summary(upper.json())).toEqual([
      [account.unallocated, "-45.00", "955.00"],
      [mine, "-5.00", "-5.00"],
    ]);
    await kit.ledgerHolds(account.id);
  });

  it("keeps the one Unallocated allocation of a zero-amount transaction", async () => {
    const user = await t.user();
    const account = await kit.account(user);
    const budget = await kit.budget(account.id);
    const row = await kit.transaction(user, account.id, { amount: "0.00" });
    expect(summary(row.allocations)).toEqual([[account.unallocated, "0.00", "1000.00"]]);

    const emptied = await split(user, row.id, {});
    expect(emptied.statusCode, emptied.body).toBe(200);
    expect(emptied.json().map((a: Allocation) => [a.id, a.budget, a.amount])).toEqual([
      [row.allocations[0]?.id, account.unallocated, "0.00"],
    ]);
    const over = await split(user, row.id, { [budget]: "0.01" });
    expect(over.statusCode).toBe(400);
    const stored = (await t.as(user).call(transactionRoutes.get, { id: row.id })).json();
    expect(summary(stored.allocations)).toEqual([[account.unallocated, "0.00", "1000.00"]]);
    await kit.ledgerHolds(account.id);
  });

  it("refuses to split a pending transaction", async () => {
    const user = await t.user();
    const account = await kit.account(user);
    const budget = await kit.budget(account.id);
    const row = await kit.transaction(user, account.id, { pending: true });
    const response = await split(user, row.id, { [budget]: "1.00" });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json())).toEqual(["non_field_errors"]);
    await kit.ledgerHolds(account.id);
  });

  it("takes the whole amount exactly, leaving no Unallocated allocation; a form body carries JSON", async () => {
    const user = await t.user();
    const account = await kit.account(user);
    const a = await kit.budget(account.id);
    const row = await kit.transaction(user, account.id, { amount: "-20.00" });
    const response = await t.inject({
      method: "POST",
      url: `/api/v1/transactions/${row.id}/splits/`,
      headers: { authorization: user.bearer, "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ splits: JSON.stringify({ [a]: "20" }) }).toString(),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(summary(response.json())).toEqual([[a, "-20.00", "-20.00"]]);
    await kit.ledgerHolds(account.id);
  });
});
