import { budgetRoutes } from "@allot/contract/budgets/routes";
import { internalTransactions } from "@allot/db/schema/internal-transactions";
import { testEngines } from "@allot/db/testing/test-databases";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { budgetsKit, ISO_DATE_TIME, recurringFields } from "../../../test/testing/budgets-test-kit";
import { aBudget, anAccount, fillupOf } from "../../../test/testing/fixtures";
import { useTestApp } from "../../../test/testing/test-app";

describe.each(testEngines())("archiving budgets over HTTP (%s)", (engine) => {
  const t = useTestApp(engine);
  const { row, transfer, allocate, expectLedgerOk } = budgetsKit(t);

  it("moves the balance and the fill-up goal's to Unallocated through recorded transfers", async () => {
    const user = await t.user();
    const account = await anAccount(t, user, { balance: "500.00" });
    const rent = await aBudget(t, user, account, { name: "Rent", ...recurringFields });
    await transfer(user, account, account.unallocated_budget, rent.id, "80.00");
    await transfer(user, account, account.unallocated_budget, fillupOf(rent), "35.25");
    await expectLedgerOk(account);

    const response = await t.as(user).call(budgetRoutes.archive, { id: rent.id });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      id: rent.id,
      archived: true,
      archived_at: expect.stringMatching(ISO_DATE_TIME),
      balance: "0.00",
    });
    expect(await row(fillupOf(rent))).toMatchObject({
      archived: true,
      balance: "0.00",
      fundedAmount: "0.00",
    });
    expect((await row(account.unallocated_budget))?.balance).toBe("500.00");
    const moves = await t.db
      .select()
      .from(internalTransactions)
      .where(eq(internalTransactions.dstBudgetId, account.unallocated_budget));
    expect(moves.map((m) => [m.srcBudgetId, m.amount, m.actorId]).sort()).toEqual(
      [
        [rent.id, "80.00", user.id],
        [fillupOf(rent), "35.25", user.id],
      ].sort(),
    );
    await expectLedgerOk(account);

    const again = await t.as(user).call(budgetRoutes.archive, { id: rent.id });
    expect(again.statusCode).toBe(400);
    await expectLedgerOk(account);
  });

  it("makes a negative balance whole from Unallocated", async () => {
    const user = await t.user();
    const account = await anAccount(t, user, { balance: "100.00" });
    const goal = await aBudget(t, user, account);
    await allocate(user, account, goal.id, "-30.00");
    expect((await t.as(user).call(budgetRoutes.archive, { id: goal.id })).statusCode).toBe(200);
    expect(await row(goal.id)).toMatchObject({ balance: "0.00", archived: true });
    expect((await row(account.unallocated_budget))?.balance).toBe("70.00");
    await expectLedgerOk(account);
  });

  it("refuses the Unallocated budget (403) and a fill-up goal on its own (400)", async () => {
    const user = await t.user();
    const account = await anAccount(t, user);
    expect((await t.as(user).call(budgetRoutes.archive, { id: account.unallocated_budget })).statusCode).toBe(
      403,
    );
    const rent = await aBudget(t, user, account, { name: "Rent", ...recurringFields });
    expect((await t.as(user).call(budgetRoutes.archive, { id: fillupOf(rent) })).statusCode).toBe(400);
    expect((await row(account.unallocated_budget))?.archived).toBe(false);
    await expectLedgerOk(account);
  });
});
