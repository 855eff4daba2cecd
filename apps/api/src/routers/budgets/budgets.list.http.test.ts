import { budgetRoutes } from "@allot/contract/budgets/routes";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { testEngines } from "@allot/db/testing/test-databases";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { budgetsKit, recurringFields } from "../../../test/testing/budgets-test-kit";
import { aBudget, anAccount } from "../../../test/testing/fixtures";
import { useTestApp } from "../../../test/testing/test-app";

describe.each(testEngines())("listing and retrieving budgets over HTTP (%s)", (engine) => {
  const t = useTestApp(engine);
  const { list, transfer, expectLedgerOk } = budgetsKit(t);

  it("lists only the caller's budgets, the Unallocated one among them, with every filter", async () => {
    const user = await t.user();
    const other = await t.user();
    const account = await anAccount(t, user, { balance: "300.00" });
    const second = await anAccount(t, user);
    await anAccount(t, other);
    const food = await aBudget(t, user, account, { name: "food", paused: true });
    const Fun = await aBudget(t, user, account, { name: "Fun_money", budget_type: "C" });
    const rent = await aBudget(t, user, account, { name: "Rent", ...recurringFields });
    await aBudget(t, user, second, { name: "Elsewhere" });
    await transfer(user, account, account.unallocated_budget, Fun.id, "70");
    await transfer(user, account, account.unallocated_budget, food.id, "20");
    expect((await t.as(user).call(budgetRoutes.archive, { id: food.id })).statusCode).toBe(200);

    const all = await list(user, { bank_account: account.id });
    expect(all.count).toBe(5);
    const unallocated = all.results.find((b) => b.id === account.unallocated_budget);
    expect(unallocated).toMatchObject({
      name: "Unallocated",
      budget_type: "G",
      target_balance: "0.00",
      balance: "230.00",
    });
    const mine = await list(user);
    expect(mine.count).toBe(7);
    const names = (body: { results: { name: string }[] }) => body.results.map((b) => b.name);

    expect(names(await list(user, { bank_account: account.id, archived: false }))).toEqual([
      "Fun_money",
      "Rent",
      "Rent Fill-up",
      "Unallocated",
    ]);
    expect(names(await list(user, { bank_account: account.id, archived: true }))).toEqual(["food"]);
    expect(names(await list(user, { budget_type: "R" }))).toEqual(["Rent"]);
    expect(names(await list(user, { budget_type: "A" }))).toEqual(["Rent Fill-up"]);
    expect(names(await list(user, { budget_type: "C" }))).toEqual(["Fun_money"]);
    expect(names(await list(user, { paused: true }))).toEqual(["food"]);
    expect((await list(user, { paused: false })).count).toBe(6);
    expect(names(await list(user, { search: "RENT" }))).toEqual(["Rent", "Rent Fill-up"]);
    expect(names(await list(user, { search: "_" }))).toEqual(["Fun_money"]);
    expect(names(await list(user, { search: "FILL-UP" }))).toEqual(["Rent Fill-up"]);
    expect(names(await list(user, { bank_account: account.id, ordering: "-name" }))).toEqual([
      "Unallocated",
      "Rent Fill-up",
      "Rent",
      "Fun_money",
      "food",
    ]);
    expect(names(await list(user, { bank_account: account.id, ordering: "-balance" }))[0]).toBe(
      "Unallocated",
    );
    expect(names(await list(user, { bank_account: account.id, ordering: "balance" }))[0]).not.toBe(
      "Unallocated",
    );
    expect(names(await list(user, { bank_account: account.id, ordering: "-balance" })).slice(0, 2)).toEqual([
      "Unallocated",
      "Fun_money",
    ]);
    expect(names(await list(user, { bank_account: account.id, ordering: "created_at" }))[0]).toBe(
      "Unallocated",
    );
    // A Recurring budget and its fill-up goal are made in one transaction: same created_at.
    expect(
      names(await list(user, { bank_account: account.id, ordering: "-created_at" }))
        .slice(0, 2)
        .sort(),
    ).toEqual(["Rent", "Rent Fill-up"]);
    // Another user's account filters to nothing.
    const foreign = (await t.db.select().from(bankAccounts).where(sql`true`)).find(
      (a) => a.id !== account.id && a.id !== second.id,
    );
    expect((await list(user, { bank_account: `${foreign?.id}` })).count).toBe(0);
    expect((await list(other, { bank_account: account.id })).count).toBe(0);

    const page = await list(user, { bank_account: account.id, page_size: 2, page: 2 });
    expect(page.count).toBe(5);
    expect(page.results).toHaveLength(2);
    expect(page.next).toContain("page=3");
    expect(page.previous).toBeTruthy();
    const past = await t.as(user).call(budgetRoutes.list, { page: 9 });
    expect(past.statusCode).toBe(404);
    for (const [query, key] of [
      [{ archived: "maybe" }, "archived"],
      [{ paused: "2" }, "paused"],
      [{ budget_type: "Q" }, "budget_type"],
      [{ ordering: "memo" }, "ordering"],
      [{ bank_account: "nope" }, "bank_account"],
      [{ page: "0" }, "page"],
    ] as const) {
      const bad = await t.as(user).callUnchecked(budgetRoutes.list, query);
      expect(bad.statusCode, JSON.stringify(query)).toBe(400);
      expect(bad.json<Record<string, unknown>>()[key], JSON.stringify(query)).toBeDefined();
    }
    expect(rent.fillup_goal).toBeTruthy();
    await expectLedgerOk(account);
  });
});
