import { budgetRoutes } from "@allot/contract/budgets/routes";
import { budgets } from "@allot/db/schema/budgets";
import { testEngines } from "@allot/db/testing/test-databases";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { budgetsKit, recurringFields } from "../../../test/testing/budgets-test-kit";
import { aBudget, anAccount, fillupOf } from "../../../test/testing/fixtures";
import { type TestUser, useTestApp } from "../../../test/testing/test-app";

type FieldErrors = Record<string, string[]>;

describe.each(testEngines())("updating budgets over HTTP (%s)", (engine) => {
  const t = useTestApp(engine);
  const { row, expectLedgerOk, globalCategoryId, spend } = budgetsKit(t);
  const patch = (user: TestUser, id: string, fields: Record<string, unknown>) =>
    t.as(user).callUnchecked(budgetRoutes.update, { id, ...fields });

  it("PATCH returns BudgetUpdateResult and mirrors name, target, funding schedule and pause onto the fill-up", async () => {
    const user = await t.user();
    const account = await anAccount(t, user);
    const rent = await aBudget(t, user, account, { name: "Rent", ...recurringFields });
    const response = await patch(user, rent.id, {
      name: "Flat",
      target_balance: "150",
      funding_schedule: "DTSTART:20260201\nRRULE:FREQ=MONTHLY;BYMONTHDAY=1",
      memo: "landlord",
      paused: "true",
      balance: "999.00",
    });
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json();
    expect(result).toMatchObject({
      id: rent.id,
      name: "Flat",
      target_balance: "150.00",
      memo: "landlord",
      paused: true,
      balance: "0.00",
      warnings: [],
      next_funding: null,
    });
    expect(Object.keys(result).sort()).toEqual([...Object.keys(rent), "warnings"].sort());
    expect(await row(fillupOf(rent))).toMatchObject({
      name: "Flat Fill-up",
      targetBalance: "150.00",
      fundingSchedule: "DTSTART:20260201\nRRULE:FREQ=MONTHLY;BYMONTHDAY=1",
      paused: true,
    });
    expect((await row(rent.id))?.balance).toBe("0.00");
    // The fill-up's mirrored fields are edited through its Recurring budget only.
    const direct = await t.as(user).call(budgetRoutes.update, { id: fillupOf(rent), name: "Mine" });
    expect(direct.statusCode).toBe(400);
    expect(direct.json().name).toBeDefined();
    expect((await t.as(user).call(budgetRoutes.update, { id: fillupOf(rent), memo: "ok" })).statusCode).toBe(
      200,
    );
    await expectLedgerOk(account);
  });

  it("PUT needs the required fields; bank_account and budget_type may only repeat the stored value", async () => {
    const user = await t.user();
    const account = await anAccount(t, user);
    const other = await anAccount(t, user);
    const goal = await aBudget(t, user, account);
    // The whole resource sent back as a client would (its id and read-only fields in the body).
    // Raw: the typed client moves the id out of the body into the path.
    const put = (payload: Record<string, unknown>) =>
      t.inject({
        method: "PUT",
        url: `/api/v1/budgets/${goal.id}/`,
        headers: { authorization: user.bearer },
        payload,
      });
    const missing = await t.as(user).callUnchecked(budgetRoutes.replace, { id: goal.id, name: "x" });
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json<FieldErrors>())).toEqual(
      expect.arrayContaining(["funding_type", "target_balance"]),
    );
    // The whole resource sent back: read-only fields ignored, same account and type fine.
    const same = await put({ ...goal, name: "Renamed", balance: "12.00" });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json()).toMatchObject({ name: "Renamed", balance: "0.00", warnings: [] });
    const moved = await put({ ...goal, bank_account: other.id });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().bank_account).toBeDefined();
    const retyped = await t.as(user).call(budgetRoutes.update, { id: goal.id, budget_type: "C" });
    expect(retyped.statusCode).toBe(400);
    expect(retyped.json().budget_type).toBeDefined();
    expect(await row(goal.id)).toMatchObject({
      bankAccountId: account.id,
      budgetType: "G",
      name: "Renamed",
    });
    await expectLedgerOk(account);
  });

  it("keeps the per-type rules and checks currency keys on update", async () => {
    const user = await t.user();
    const account = await anAccount(t, user);
    const rent = await aBudget(t, user, account, { name: "Rent", ...recurringFields });
    const goal = await aBudget(t, user, account);
    for (const [id, fields, field] of [
      [rent.id, { target_date: "2027-01-01" }, "target_date"],
      [rent.id, { funding_type: "F" }, "funding_type"],
      [rent.id, { recurrence_schedule: null }, "recurrence_schedule"],
      [rent.id, { recurrence_schedule: "FREQ=MONTHLY;BYDAY=MO" }, "recurrence_schedule"],
      [goal.id, { funding_amount: null }, "funding_amount"],
      [goal.id, { funding_type: "D" }, "target_date"],
      [goal.id, { target_balance_currency: "GBP" }, "target_balance_currency"],
      [goal.id, { recurrence_schedule: "FREQ=MONTHLY" }, "recurrence_schedule"],
    ] as const) {
      const response = await patch(user, id, fields);
      expect(response.statusCode, JSON.stringify(fields)).toBe(400);
      expect(response.json<FieldErrors>()[field], JSON.stringify(fields)).toBeDefined();
    }
    const changed = await t.as(user).call(budgetRoutes.update, {
      id: goal.id,
      funding_type: "D",
      target_date: "2027-06-30",
      auto_spend: [],
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ funding_type: "D", target_date: "2027-06-30" });
    const recurrence = await t
      .as(user)
      .call(budgetRoutes.update, { id: rent.id, recurrence_schedule: "DTSTART:20260110\nFREQ=YEARLY" });
    expect(recurrence.json().recurrence_schedule).toBe("DTSTART:20260110\nRRULE:FREQ=YEARLY");
  });

  it("refuses auto_spend on a fill-up goal (400 on auto_spend): its Recurring budget lists categories", async () => {
    const user = await t.user();
    const account = await anAccount(t, user);
    const rent = await aBudget(t, user, account, { name: "Rent", ...recurringFields });
    const autoSpend = (id: string, auto_spend: string[]) =>
      t.as(user).call(budgetRoutes.update, { id, auto_spend });
    const refused = await autoSpend(fillupOf(rent), ["Food & Drink : Groceries"]);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(Object.keys(refused.json())).toEqual(["auto_spend"]);
    expect((await row(fillupOf(rent)))?.autoSpend).toEqual([]);
    // An empty list is no change; the Recurring budget itself takes the entries.
    expect((await autoSpend(fillupOf(rent), [])).statusCode).toBe(200);
    const onRent = await autoSpend(rent.id, ["Food & Drink : Groceries"]);
    expect(onRent.statusCode, onRent.body).toBe(200);
    expect((await row(fillupOf(rent)))?.autoSpend).toEqual([]);
  });

  it("routes spend to the one Goal, Capped or Recurring budget listing its category, paused ones too", async () => {
    const user = await t.user();
    const account = await anAccount(t, user);
    const groceries = await globalCategoryId(user, "Food & Drink : Groceries");
    const gas = await globalCategoryId(user, "Transportation : Gas");
    const rentCategory = await globalCategoryId(user, "Home : Rent");
    const rent = await aBudget(t, user, account, {
      name: "Rent",
      ...recurringFields,
      paused: true,
      auto_spend: ["Food & Drink : Groceries"],
    });
    // A fill-up goal that got a list before the API refused it: routing never counts it.
    await t.db
      .update(budgets)
      .set({ autoSpend: ["Food & Drink : Groceries", "Transportation : Gas"] })
      .where(eq(budgets.id, fillupOf(rent)));
    const car = await aBudget(t, user, account, {
      name: "Car",
      budget_type: "C",
      funding_amount: "20",
      auto_spend: ["Transportation : Gas"],
    });
    const flat = await aBudget(t, user, account, { name: "Flat", auto_spend: ["Home : Rent"] });
    expect((await t.as(user).call(budgetRoutes.archive, { id: flat.id })).statusCode).toBe(200);

    expect(await spend(user, account, groceries)).toBe(rent.id);
    expect(await spend(user, account, gas)).toBe(car.id);
    expect(await spend(user, account, rentCategory)).toBe(account.unallocated_budget);
    expect((await row(fillupOf(rent)))?.balance).toBe("0.00");
    await expectLedgerOk(account);
  });

  it("never renames the Unallocated budget (400 on name) but takes a memo", async () => {
    const user = await t.user();
    const account = await anAccount(t, user);
    const id = account.unallocated_budget;
    const rename = await t.as(user).call(budgetRoutes.update, { id, name: "Spare" });
    expect(rename.statusCode).toBe(400);
    expect(rename.json().name).toBeDefined();
    const target = await t.as(user).call(budgetRoutes.update, { id, target_balance: "10" });
    expect(target.statusCode).toBe(400);
    const memo = await t.as(user).call(budgetRoutes.update, { id, name: "Unallocated", memo: "float" });
    expect(memo.statusCode, memo.body).toBe(200);
    expect(memo.json()).toMatchObject({ name: "Unallocated", memo: "float", warnings: [] });
    expect((await row(account.unallocated_budget))?.name).toBe("Unallocated");
  });
});
