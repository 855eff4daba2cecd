import { budgetRoutes } from "@allot/contract/budgets/routes";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { budgets } from "@allot/db/schema/budgets";
import { internalTransactions } from "@allot/db/schema/internal-transactions";
import { testEngines } from "@allot/db/testing/test-databases";
import { eq, or } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { budgetsKit, recurringFields } from "../../../test/testing/budgets-test-kit";
import { aBudget, anAccount, fillupOf } from "../../../test/testing/fixtures";
import { useTestApp } from "../../../test/testing/test-app";

describe.each(testEngines())("deleting budgets over HTTP (%s)", (engine) => {
  const t = useTestApp(engine);
  const { row, transfer, allocate, expectLedgerOk } = budgetsKit(t);

  it("reverses transfers with other budgets, deletes the fill-up, and keeps the ledger right", async () => {
    const user = await t.user();
    const account = await anAccount(t, user, { balance: "1000.00" });
    const rent = await aBudget(t, user, account, { name: "Rent", ...recurringFields });
    const goal = await aBudget(t, user, account, { name: "Goal" });
    const keep = await aBudget(t, user, account, { name: "Keep" });
    await transfer(user, account, account.unallocated_budget, rent.id, "100.00");
    await transfer(user, account, account.unallocated_budget, keep.id, "40.00");
    await transfer(user, account, rent.id, goal.id, "30.00");
    await transfer(user, account, account.unallocated_budget, fillupOf(rent), "20.00");
    await transfer(user, account, fillupOf(rent), rent.id, "5.00");
    await transfer(user, account, goal.id, keep.id, "10.00");
    await allocate(user, account, account.unallocated_budget, "-50.00");
    await expectLedgerOk(account);

    const response = await t.as(user).call(budgetRoutes.delete, { id: rent.id });
    expect(response.statusCode, response.body).toBe(204);
    expect(await row(rent.id)).toBeUndefined();
    expect(await row(fillupOf(rent))).toBeUndefined();
    // Unallocated gets back what it paid in (100 + 20), less the later spend; the goal gives back 30.
    expect((await row(account.unallocated_budget))?.balance).toBe("910.00");
    expect(await row(goal.id)).toMatchObject({ balance: "-10.00", fundedAmount: "-10.00" });
    expect(await row(keep.id)).toMatchObject({ balance: "50.00" });
    const left = await t.db
      .select()
      .from(internalTransactions)
      .where(
        or(eq(internalTransactions.srcBudgetId, rent.id), eq(internalTransactions.dstBudgetId, rent.id)),
      );
    expect(left).toEqual([]);
    expect(
      await t.db
        .select()
        .from(internalTransactions)
        .where(eq(internalTransactions.bankAccountId, account.id)),
    ).toHaveLength(2);
    await expectLedgerOk(account);
    expect((await t.as(user).call(budgetRoutes.get, { id: rent.id })).statusCode).toBe(404);
  });

  it("keeps an archived counterpart at zero: Unallocated takes the deleted budget's side of those transfers", async () => {
    const user = await t.user();
    const account = await anAccount(t, user, { balance: "1000.00" });
    const gone = await aBudget(t, user, account, { name: "Gone" });
    const closed = await aBudget(t, user, account, { name: "Closed" });
    await transfer(user, account, account.unallocated_budget, gone.id, "10.00");
    await transfer(user, account, gone.id, closed.id, "10.00");
    await transfer(user, account, account.unallocated_budget, closed.id, "6.00");
    await transfer(user, account, closed.id, gone.id, "4.00");
    expect((await t.as(user).call(budgetRoutes.archive, { id: closed.id })).statusCode).toBe(200);
    await expectLedgerOk(account);

    expect((await t.as(user).call(budgetRoutes.delete, { id: gone.id })).statusCode).toBe(204);
    expect(await row(closed.id)).toMatchObject({ archived: true, balance: "0.00", fundedAmount: "0.00" });
    expect((await row(account.unallocated_budget))?.balance).toBe("1000.00");
    const moves = await t.db
      .select()
      .from(internalTransactions)
      .where(eq(internalTransactions.bankAccountId, account.id));
    const name = (id: string) => (id === closed.id ? "Closed" : id === account.unallocated_budget ? "U" : id);
    expect(moves.map((m) => `${name(m.srcBudgetId)}>${name(m.dstBudgetId)} ${m.amount}`).sort()).toEqual(
      ["U>Closed 10.00", "U>Closed 6.00", "Closed>U 4.00", "Closed>U 12.00"].sort(),
    );
    const [accountRow] = await t.db.select().from(bankAccounts).where(eq(bankAccounts.id, account.id));
    expect(accountRow?.availableBalance).toBe("1000.00");
    await expectLedgerOk(account);
  });

  it("moves a remaining balance that no transfer explains to Unallocated", async () => {
    const user = await t.user();
    const account = await anAccount(t, user, { balance: "100.00" });
    const goal = await aBudget(t, user, account);
    // An opening balance outside any event (as a future import might leave): 12.50 more in the account.
    await t.db.update(budgets).set({ balance: "12.50" }).where(eq(budgets.id, goal.id));
    await t.db
      .update(bankAccounts)
      .set({ availableBalance: "112.50" })
      .where(eq(bankAccounts.id, account.id));
    await transfer(user, account, account.unallocated_budget, goal.id, "7.50");
    await expectLedgerOk(account);
    expect((await t.as(user).call(budgetRoutes.delete, { id: goal.id })).statusCode).toBe(204);
    expect((await row(account.unallocated_budget))?.balance).toBe("112.50");
    await expectLedgerOk(account);
  });

  it("refuses while the budget or its fill-up goal has allocations (400), and the Unallocated budget (403)", async () => {
    const user = await t.user();
    const account = await anAccount(t, user);
    const goal = await aBudget(t, user, account);
    await allocate(user, account, goal.id, "-5.00");
    const own = await t.as(user).call(budgetRoutes.delete, { id: goal.id });
    expect(own.statusCode).toBe(400);
    const rent = await aBudget(t, user, account, { name: "Rent", ...recurringFields });
    await allocate(user, account, fillupOf(rent), "-1.00");
    expect((await t.as(user).call(budgetRoutes.delete, { id: rent.id })).statusCode).toBe(400);
    expect(await row(rent.id)).toBeDefined();
    expect((await t.as(user).call(budgetRoutes.delete, { id: fillupOf(rent) })).statusCode).toBe(400);
    const unallocated = await t.as(user).call(budgetRoutes.delete, { id: account.unallocated_budget });
    expect(unallocated.statusCode).toBe(403);
    expect(unallocated.json()).toMatchObject({ detail: expect.any(String), code: expect.any(String) });
    expect(await row(account.unallocated_budget)).toBeDefined();
    await expectLedgerOk(account);
    // Archiving instead works.
    expect((await t.as(user).call(budgetRoutes.archive, { id: goal.id })).statusCode).toBe(200);
    await expectLedgerOk(account);
  });
});
