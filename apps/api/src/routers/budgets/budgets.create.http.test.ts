import { budgetRoutes } from "@allot/contract/budgets/routes";
import { transactionCategoryRoutes } from "@allot/contract/transaction-categories/routes";
import { budgets } from "@allot/db/schema/budgets";
import { testEngines } from "@allot/db/testing/test-databases";
import { localDate } from "@allot/domain/calendar/local-days";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  budgetsKit,
  goalFields,
  ISO_DATE_TIME,
  MISSING,
  recurringFields,
  UUID,
} from "../../../test/testing/budgets-test-kit";
import { aBudget, aCategory, anAccount, fillupOf } from "../../../test/testing/fixtures";
import { useTestApp } from "../../../test/testing/test-app";

type FieldErrors = Record<string, string[]>;

describe.each(testEngines())("creating budgets over HTTP (%s)", (engine) => {
  const t = useTestApp(engine);
  const { row, list, expectLedgerOk } = budgetsKit(t);

  it("creates a Goal with every field of the resource, currency siblings from the account", async () => {
    const user = await t.user();
    const account = await anAccount(t, user);
    // Unchecked: a number where the contract types a decimal string is read as text all the same.
    const response = await t.as(user).callUnchecked(budgetRoutes.create, {
      name: "  Holiday ",
      bank_account: account.id,
      budget_type: "G",
      funding_type: "F",
      target_balance: 500,
      target_balance_currency: "usd",
      funding_amount: "25.5",
      funding_amount_currency: "USD",
      funding_schedule: "DTSTART:20260105\nRRULE:FREQ=WEEKLY;BYDAY=MO",
      memo: "Lisbon",
      paused: true,
    });
    expect(response.statusCode, response.body).toBe(201);
    const budget = response.json();
    expect(budget).toEqual({
      id: expect.stringMatching(UUID),
      name: "Holiday",
      bank_account: account.id,
      balance: "0.00",
      balance_currency: "USD",
      funded_amount: "0.00",
      funded_amount_currency: "USD",
      target_balance: "500.00",
      target_balance_currency: "USD",
      funding_amount: "25.50",
      funding_amount_currency: "USD",
      budget_type: "G",
      funding_type: "F",
      target_date: null,
      fillup_goal: null,
      archived: false,
      archived_at: null,
      complete: false,
      paused: true,
      funding_schedule: "DTSTART:20260105\nRRULE:FREQ=WEEKLY;BYDAY=MO",
      recurrence_schedule: null,
      memo: "Lisbon",
      auto_spend: [],
      next_funding: null,
      next_recurrence: null,
      funding_pace: null,
      created_at: expect.stringMatching(ISO_DATE_TIME),
      modified_at: expect.stringMatching(ISO_DATE_TIME),
    });
    expect((await t.as(user).call(budgetRoutes.get, { id: budget.id })).json()).toEqual(budget);
    await expectLedgerOk(account);
  });

  it("gives a Recurring budget its fill-up goal, in the same transaction", async () => {
    const user = await t.user();
    const account = await anAccount(t, user);
    const budget = await aBudget(t, user, account, {
      name: "Rent",
      ...recurringFields,
      funding_amount: null,
    });
    expect(budget).toMatchObject({
      budget_type: "R",
      funding_type: "D",
      recurrence_schedule: "RRULE:FREQ=MONTHLY",
      fillup_goal: expect.stringMatching(UUID),
      funding_amount: null,
      funding_amount_currency: null,
    });
    const fillup = (await t.as(user).call(budgetRoutes.get, { id: fillupOf(budget) })).json();
    expect(fillup).toMatchObject({
      name: "Rent Fill-up",
      budget_type: "A",
      bank_account: account.id,
      target_balance: "120.00",
      funding_schedule: "DTSTART:20260101\nRRULE:FREQ=WEEKLY",
      fillup_goal: null,
      recurrence_schedule: null,
      balance: "0.00",
    });
    const names = (await list(user, { bank_account: account.id })).results.map((b) => b.name);
    expect(names).toEqual(["Rent", "Rent Fill-up", "Unallocated"]);
    await expectLedgerOk(account);
  });

  it("shortens the fill-up goal's name so a 200-character name still fits", async () => {
    const user = await t.user();
    const account = await anAccount(t, user);
    const name = "n".repeat(200);
    const budget = await aBudget(t, user, account, { name, ...recurringFields });
    const fillup = await row(fillupOf(budget));
    expect(fillup?.name).toBe(`${"n".repeat(192)} Fill-up`);
  });

  it("anchors a funding schedule without DTSTART to today in the first owner's time zone", async () => {
    const user = await t.user({ timeZone: "Pacific/Kiritimati" });
    const account = await anAccount(t, user);
    const before = localDate(new Date(), "Pacific/Kiritimati");
    const budget = await aBudget(t, user, account, { funding_schedule: "FREQ=MONTHLY;BYMONTHDAY=1" });
    const after = localDate(new Date(), "Pacific/Kiritimati");
    expect(
      [before, after].map((d) => `DTSTART:${d.replaceAll("-", "")}\nRRULE:FREQ=MONTHLY;BYMONTHDAY=1`),
    ).toContain(budget.funding_schedule);
    // A recurring budget's fill-up goal gets the same anchored schedule.
    const recurring = await aBudget(t, user, account, {
      ...recurringFields,
      funding_schedule: "FREQ=WEEKLY",
    });
    expect(recurring.funding_schedule).toMatch(/^DTSTART:\d{8}\nRRULE:FREQ=WEEKLY$/);
    expect((await row(fillupOf(recurring)))?.fundingSchedule).toBe(recurring.funding_schedule);
  });

  it.each([
    [{ budget_type: "R", funding_type: "F", recurrence_schedule: "FREQ=MONTHLY" }, "funding_type"],
    [
      {
        budget_type: "R",
        funding_type: "D",
        recurrence_schedule: "FREQ=MONTHLY",
        target_date: "2027-01-01",
      },
      "target_date",
    ],
    [{ budget_type: "R", funding_type: "D" }, "recurrence_schedule"],
    [
      { budget_type: "C", funding_type: "D", funding_amount: "10", target_date: "2027-01-01" },
      "funding_type",
    ],
    [{ budget_type: "C", funding_type: "F", funding_amount: null }, "funding_amount"],
    [{ budget_type: "G", funding_type: "F", funding_amount: null }, "funding_amount"],
    [{ budget_type: "G", funding_type: "D", funding_amount: null }, "target_date"],
    [{ budget_type: "G", recurrence_schedule: "FREQ=MONTHLY" }, "recurrence_schedule"],
    [{ budget_type: "A" }, "budget_type"],
    [{ budget_type: "X" }, "budget_type"],
    [{ funding_type: "Z" }, "funding_type"],
    [{ target_balance: "-1" }, "target_balance"],
    [{ target_balance: "1.234" }, "target_balance"],
    [{ funding_amount: "-5" }, "funding_amount"],
    [{ target_balance_currency: "EUR" }, "target_balance_currency"],
    [{ funding_amount_currency: "EUR" }, "funding_amount_currency"],
    [{ memo: "m".repeat(513) }, "memo"],
    [{ name: "n".repeat(201) }, "name"],
    [{ name: "   " }, "name"],
    [{ target_date: "2026-02-30", funding_type: "D" }, "target_date"],
    [{ funding_schedule: "every friday" }, "funding_schedule"],
    [{ funding_schedule: "FREQ=WEEKLY;INTERVAL=-1" }, "funding_schedule"],
    [{ auto_spend: ["Nope : Nothing"] }, "auto_spend"],
  ])("refuses %j with 400 on %s, creating nothing", async (fields, field) => {
    const user = await t.user();
    const account = await anAccount(t, user);
    const response = await t.as(user).callUnchecked(budgetRoutes.create, {
      name: "Bad",
      bank_account: account.id,
      ...goalFields,
      ...fields,
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(Object.keys(response.json())).toContain(field);
    expect(await t.db.select().from(budgets).where(eq(budgets.bankAccountId, account.id))).toHaveLength(1);
  });

  it("names the recurrence grammar problem in the message", async () => {
    const user = await t.user();
    const account = await anAccount(t, user);
    for (const [schedule, message] of [
      ["FREQ=DAILY", /WEEKLY, MONTHLY or YEARLY/],
      ["FREQ=MONTHLY;BYMONTHDAY=1", /BYMONTHDAY/],
      ["FREQ=MONTHLY;COUNT=2", /COUNT/],
      ["FREQ=MONTHLY;UNTIL=20270101", /UNTIL/],
      ["RRULE:FREQ=MONTHLY\nEXDATE:20260301", /EXDATE/],
    ] as const) {
      const response = await t.as(user).call(budgetRoutes.create, {
        name: "Rent",
        bank_account: account.id,
        ...recurringFields,
        recurrence_schedule: schedule,
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json<FieldErrors>().recurrence_schedule?.[0]).toMatch(message);
    }
  });

  it("refuses another user's account and an unknown one alike: 400 on bank_account", async () => {
    const owner = await t.user();
    const stranger = await t.user();
    const account = await anAccount(t, owner);
    for (const bankAccount of [account.id, MISSING]) {
      const response = await t
        .as(stranger)
        .call(budgetRoutes.create, { name: "Sneaky", bank_account: bankAccount, ...goalFields });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json<FieldErrors>().bank_account?.[0]).toMatch(/does not exist/);
    }
    expect(await t.db.select().from(budgets).where(eq(budgets.bankAccountId, account.id))).toHaveLength(1);
    const missing = await t.as(owner).callUnchecked(budgetRoutes.create, { name: "x", ...goalFields });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<FieldErrors>().bank_account).toBeDefined();
  });

  it("validates auto_spend against visible categories and stores the canonical names", async () => {
    const user = await t.user();
    const account = await anAccount(t, user);
    const budget = await aBudget(t, user, account, {
      auto_spend: ["  food & drink:groceries ", "FOOD & DRINK : GROCERIES"],
    });
    expect(budget.auto_spend).toEqual(["Food & Drink : Groceries"]);
    const unknown = await t.as(user).call(budgetRoutes.create, {
      name: "x",
      bank_account: account.id,
      ...goalFields,
      auto_spend: ["Food & Drink : Groceries", "Made Up : Category"],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<FieldErrors>().auto_spend?.[0]).toMatch(/Made Up : Category/);
    // Whitespace inside the group and the name collapses too.
    const spaced = await aBudget(t, user, account, {
      name: "Spaced",
      auto_spend: ["Food  &  Drink :  Groceries"],
    });
    expect(spaced.auto_spend).toEqual(["Food & Drink : Groceries"]);
    // Another user's private category is not visible: unknown.
    const stranger = await t.user();
    await aCategory(t, stranger, { group: "Secret", name: "Stash" });
    const foreign = await t.as(user).call(budgetRoutes.create, {
      name: "x",
      bank_account: account.id,
      ...goalFields,
      auto_spend: ["Secret : Stash"],
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json<FieldErrors>().auto_spend?.[0]).toMatch(/Secret : Stash/);
  });

  it("refuses an archived category as a new auto_spend entry but keeps one already listed", async () => {
    const user = await t.user();
    const account = await anAccount(t, user);
    const fish = await aCategory(t, user, { group: "Pets", name: "Fish" });
    const budget = await aBudget(t, user, account, { auto_spend: ["Pets : Fish"] });
    const archived = await t.as(user).call(transactionCategoryRoutes.archive, { id: fish.id });
    expect(archived.statusCode, archived.body).toBe(200);
    const fresh = await t.as(user).call(budgetRoutes.create, {
      name: "New",
      bank_account: account.id,
      ...goalFields,
      auto_spend: ["pets:fish"],
    });
    expect(fresh.statusCode).toBe(400);
    expect(fresh.json<FieldErrors>().auto_spend?.[0]).toMatch(/Pets : Fish.*archived/);
    // The budget that lists it already: sent back whole, or with another entry added, still fine.
    // Raw: sent back whole means its id in the body too; the typed client moves it into the path.
    const same = await t.inject({
      method: "PUT",
      url: `/api/v1/budgets/${budget.id}/`,
      headers: { authorization: user.bearer },
      payload: { ...budget, memo: "still here" },
    });
    expect(same.statusCode, same.body).toBe(200);
    const patch = (auto_spend: string[]) =>
      t.as(user).call(budgetRoutes.update, { id: budget.id, auto_spend });
    const more = await patch(["Pets : Fish", "Home : Rent"]);
    expect(more.statusCode, more.body).toBe(200);
    expect(more.json().auto_spend).toEqual(["Pets : Fish", "Home : Rent"]);
    // Dropped once, it is a new entry again.
    expect((await patch([])).statusCode).toBe(200);
    const back = await patch(["Pets : Fish"]);
    expect(back.statusCode).toBe(400);
    expect(back.json<FieldErrors>().auto_spend?.[0]).toMatch(/archived/);
  });

  it("takes form-encoded bodies: paused=false stays false", async () => {
    const user = await t.user();
    const account = await anAccount(t, user);
    const form = (fields: Record<string, string>) =>
      t.inject({
        method: "POST",
        url: "/api/v1/budgets/",
        headers: { authorization: user.bearer, "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams(fields).toString(),
      });
    const base = { bank_account: account.id, budget_type: "C", funding_type: "F", target_balance: "90" };
    const off = await form({
      ...base,
      name: "Off",
      funding_amount: "30",
      paused: "false",
      target_date: "",
    });
    expect(off.statusCode, off.body).toBe(201);
    expect(off.json()).toMatchObject({ paused: false, target_date: null, funding_amount: "30.00" });
    const on = await form({
      ...base,
      name: "On",
      funding_amount: "30",
      paused: "true",
      auto_spend: "Food & Drink : Groceries",
    });
    expect(on.statusCode, on.body).toBe(201);
    expect(on.json()).toMatchObject({ paused: true, auto_spend: ["Food & Drink : Groceries"] });
    expect((await row(off.json().id))?.paused).toBe(false);
  });
});
