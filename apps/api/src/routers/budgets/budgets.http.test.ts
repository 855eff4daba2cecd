import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { budgets } from "@allot/db/schema/budgets";
import { internalTransactions } from "@allot/db/schema/internal-transactions";
import { transactionAllocations } from "@allot/db/schema/transaction-allocations";
import { transactions } from "@allot/db/schema/transactions";
import { testEngines } from "@allot/db/testing/test-databases";
import { findOwnedAccount } from "@allot/domain/bank-accounts/find-owned-account";
import { createBank } from "@allot/domain/banks/create-bank";
import { localDate } from "@allot/domain/calendar/local-days";
import {
  type BudgetRow,
  changeAccountBalances,
  changeBudgetBalance,
  lockBudgets,
} from "@allot/domain/ledger/balances";
import { refreshBudgetSnapshots, refreshTransactionSnapshots } from "@allot/domain/ledger/snapshots";
import { recordTransfer } from "@allot/domain/ledger/transfers";
import { verifyLedger } from "@allot/domain/ledger/verify-ledger";
import { toMoney } from "@allot/domain/shared/money";
import { eq, or, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type TestUser, useTestApp } from "../../../test/testing/test-app";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const MISSING = "00000000-0000-4000-8000-000000000000";

interface Account {
  id: string;
  unallocated_budget: string;
  currency: string;
}

describe.each(testEngines())("budgets over HTTP (%s)", (engine) => {
  const t = useTestApp(engine);
  let bankId: string;

  beforeAll(async () => {
    bankId = (await createBank(t.db, { name: "Budget Bank", currency: "USD" })).id;
  });

  const auth = (user: TestUser) => ({ authorization: user.bearer });
  const newAccount = async (user: TestUser, available = "1000.00"): Promise<Account> => {
    const response = await t.inject({
      method: "POST",
      url: "/api/v1/bank-accounts/",
      headers: auth(user),
      payload: { name: "Checking", bank: bankId, available_balance: available, posted_balance: available },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  };
  const post = (user: TestUser, payload: Record<string, unknown>) =>
    t.inject({ method: "POST", url: "/api/v1/budgets/", headers: auth(user), payload });
  const goalFields = { budget_type: "G", funding_type: "F", target_balance: "500", funding_amount: "50" };
  const recurringFields = {
    budget_type: "R",
    funding_type: "D",
    target_balance: "120.00",
    recurrence_schedule: "RRULE:FREQ=MONTHLY",
    funding_schedule: "DTSTART:20260101\nRRULE:FREQ=WEEKLY",
  };
  const created = async (user: TestUser, account: Account, payload: Record<string, unknown> = {}) => {
    const response = await post(user, {
      name: "Holiday",
      bank_account: account.id,
      ...goalFields,
      ...payload,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  };
  const get = (user: TestUser, id: string) =>
    t.inject({ url: `/api/v1/budgets/${id}/`, headers: auth(user) });
  const patch = (user: TestUser, id: string, payload: Record<string, unknown>) =>
    t.inject({ method: "PATCH", url: `/api/v1/budgets/${id}/`, headers: auth(user), payload });
  const archive = (user: TestUser, id: string) =>
    t.inject({ method: "POST", url: `/api/v1/budgets/${id}/archive/`, headers: auth(user) });
  const remove = (user: TestUser, id: string) =>
    t.inject({ method: "DELETE", url: `/api/v1/budgets/${id}/`, headers: auth(user) });
  const row = async (id: string) => (await t.db.select().from(budgets).where(eq(budgets.id, id)))[0];
  const list = async (user: TestUser, query = "") => {
    const response = await t.inject({ url: `/api/v1/budgets/${query}`, headers: auth(user) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const expectLedgerOk = async (account: Account) => expect(await verifyLedger(t.db, account.id)).toEqual([]);
  const newCategory = async (user: TestUser, group: string, name: string): Promise<string> => {
    const response = await t.inject({
      method: "POST",
      url: "/api/v1/transaction-categories/",
      headers: auth(user),
      payload: { group, name },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id;
  };
  const globalCategoryId = async (user: TestUser, fullName: string): Promise<string> => {
    const response = await t.inject({
      url: `/api/v1/transaction-categories/?scope=global&page_size=500`,
      headers: auth(user),
    });
    const found = response.json().results.find((c: { full_name: string }) => c.full_name === fullName);
    if (!found) throw new Error(`no global category ${fullName}`);
    return found.id;
  };
  /** A posted spend created over HTTP; answers the budget its allocation went to. */
  const spend = async (user: TestUser, account: Account, category: string) => {
    const response = await t.inject({
      method: "POST",
      url: "/api/v1/transactions/",
      headers: auth(user),
      payload: {
        bank_account: account.id,
        amount: "-12.00",
        transaction_date: "2026-01-10",
        transaction_type: "ach",
        raw_description: "shop",
        category,
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    const [allocation] = await t.db
      .select()
      .from(transactionAllocations)
      .where(eq(transactionAllocations.transactionId, response.json().id));
    return allocation?.budgetId;
  };

  /** Moves money between two budgets as a recorded transfer, through the ledger core. */
  const transfer = (user: TestUser, account: Account, from: string, to: string, amount: string) =>
    t.db.transaction(async (tx) => {
      await findOwnedAccount(tx, { userId: user.id }, account.id, { lock: true });
      const locked = await lockBudgets(tx, account.id, [from, to]);
      await recordTransfer(tx, {
        accountId: account.id,
        source: locked.get(from) as BudgetRow,
        destination: locked.get(to) as BudgetRow,
        amount: toMoney(amount),
        actorId: user.id,
      });
    });

  /** A posted transaction allocated wholly to one budget, through the ledger core. */
  const allocate = (user: TestUser, account: Account, budgetId: string, amount: string) =>
    t.db.transaction(async (tx) => {
      await findOwnedAccount(tx, { userId: user.id }, account.id, { lock: true });
      await lockBudgets(tx, account.id, [budgetId]);
      const now = new Date();
      const [txRow] = await tx
        .insert(transactions)
        .values({
          bankAccountId: account.id,
          amount,
          postedDate: now,
          transactionDate: now,
          rawDescription: "shop",
          description: "shop",
        })
        .returning();
      if (!txRow) throw new Error("no transaction");
      await tx
        .insert(transactionAllocations)
        .values({ transactionId: txRow.id, bankAccountId: account.id, budgetId, amount });
      await changeAccountBalances(tx, account.id, {
        posted: toMoney(amount),
        available: toMoney(amount),
        transactions: 1,
      });
      await changeBudgetBalance(tx, budgetId, toMoney(amount));
      const key = { at: txRow.transactionDate, createdAt: txRow.createdAt };
      await refreshTransactionSnapshots(tx, account.id, key);
      await refreshBudgetSnapshots(tx, account.id, [budgetId], key);
    });

  describe("create", () => {
    it("creates a Goal with every field of the resource, currency siblings from the account", async () => {
      const user = await t.user();
      const account = await newAccount(user);
      const response = await post(user, {
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
      expect((await get(user, budget.id)).json()).toEqual(budget);
      await expectLedgerOk(account);
    });

    it("gives a Recurring budget its fill-up goal, in the same transaction", async () => {
      const user = await t.user();
      const account = await newAccount(user);
      const budget = await created(user, account, { name: "Rent", ...recurringFields, funding_amount: null });
      expect(budget).toMatchObject({
        budget_type: "R",
        funding_type: "D",
        recurrence_schedule: "RRULE:FREQ=MONTHLY",
        fillup_goal: expect.stringMatching(UUID),
        funding_amount: null,
        funding_amount_currency: null,
      });
      const fillup = (await get(user, budget.fillup_goal)).json();
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
      const names = (await list(user, `?bank_account=${account.id}`)).results.map(
        (b: { name: string }) => b.name,
      );
      expect(names).toEqual(["Rent", "Rent Fill-up", "Unallocated"]);
      await expectLedgerOk(account);
    });

    it("shortens the fill-up goal's name so a 200-character name still fits", async () => {
      const user = await t.user();
      const account = await newAccount(user);
      const name = "n".repeat(200);
      const budget = await created(user, account, { name, ...recurringFields });
      const fillup = await row(budget.fillup_goal);
      expect(fillup?.name).toBe(`${"n".repeat(192)} Fill-up`);
    });

    it("anchors a funding schedule without DTSTART to today in the first owner's time zone", async () => {
      const user = await t.user({ timeZone: "Pacific/Kiritimati" });
      const account = await newAccount(user);
      const before = localDate(new Date(), "Pacific/Kiritimati");
      const budget = await created(user, account, { funding_schedule: "FREQ=MONTHLY;BYMONTHDAY=1" });
      const after = localDate(new Date(), "Pacific/Kiritimati");
      expect(
        [before, after].map((d) => `DTSTART:${d.replaceAll("-", "")}\nRRULE:FREQ=MONTHLY;BYMONTHDAY=1`),
      ).toContain(budget.funding_schedule);
      // A recurring budget's fill-up goal gets the same anchored schedule.
      const recurring = await created(user, account, { ...recurringFields, funding_schedule: "FREQ=WEEKLY" });
      expect(recurring.funding_schedule).toMatch(/^DTSTART:\d{8}\nRRULE:FREQ=WEEKLY$/);
      expect((await row(recurring.fillup_goal))?.fundingSchedule).toBe(recurring.funding_schedule);
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
      const account = await newAccount(user);
      const response = await post(user, { name: "Bad", bank_account: account.id, ...goalFields, ...fields });
      expect(response.statusCode, response.body).toBe(400);
      expect(Object.keys(response.json())).toContain(field);
      expect(await t.db.select().from(budgets).where(eq(budgets.bankAccountId, account.id))).toHaveLength(1);
    });

    it("names the recurrence grammar problem in the message", async () => {
      const user = await t.user();
      const account = await newAccount(user);
      for (const [schedule, message] of [
        ["FREQ=DAILY", /WEEKLY, MONTHLY or YEARLY/],
        ["FREQ=MONTHLY;BYMONTHDAY=1", /BYMONTHDAY/],
        ["FREQ=MONTHLY;COUNT=2", /COUNT/],
        ["FREQ=MONTHLY;UNTIL=20270101", /UNTIL/],
        ["RRULE:FREQ=MONTHLY\nEXDATE:20260301", /EXDATE/],
      ] as const) {
        const response = await post(user, {
          name: "Rent",
          bank_account: account.id,
          ...recurringFields,
          recurrence_schedule: schedule,
        });
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json().recurrence_schedule[0]).toMatch(message);
      }
    });

    it("refuses another user's account and an unknown one alike: 400 on bank_account", async () => {
      const owner = await t.user();
      const stranger = await t.user();
      const account = await newAccount(owner);
      for (const bankAccount of [account.id, MISSING]) {
        const response = await post(stranger, { name: "Sneaky", bank_account: bankAccount, ...goalFields });
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json().bank_account[0]).toMatch(/does not exist/);
      }
      expect(await t.db.select().from(budgets).where(eq(budgets.bankAccountId, account.id))).toHaveLength(1);
      const missing = await post(owner, { name: "x", ...goalFields });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().bank_account).toBeDefined();
    });

    it("validates auto_spend against visible categories and stores the canonical names", async () => {
      const user = await t.user();
      const account = await newAccount(user);
      const budget = await created(user, account, {
        auto_spend: ["  food & drink:groceries ", "FOOD & DRINK : GROCERIES"],
      });
      expect(budget.auto_spend).toEqual(["Food & Drink : Groceries"]);
      const unknown = await post(user, {
        name: "x",
        bank_account: account.id,
        ...goalFields,
        auto_spend: ["Food & Drink : Groceries", "Made Up : Category"],
      });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().auto_spend[0]).toMatch(/Made Up : Category/);
      // Whitespace inside the group and the name collapses too.
      const spaced = await created(user, account, {
        name: "Spaced",
        auto_spend: ["Food  &  Drink :  Groceries"],
      });
      expect(spaced.auto_spend).toEqual(["Food & Drink : Groceries"]);
      // Another user's private category is not visible: unknown.
      const stranger = await t.user();
      await newCategory(stranger, "Secret", "Stash");
      const foreign = await post(user, {
        name: "x",
        bank_account: account.id,
        ...goalFields,
        auto_spend: ["Secret : Stash"],
      });
      expect(foreign.statusCode).toBe(400);
      expect(foreign.json().auto_spend[0]).toMatch(/Secret : Stash/);
    });

    it("refuses an archived category as a new auto_spend entry but keeps one already listed", async () => {
      const user = await t.user();
      const account = await newAccount(user);
      const fish = await newCategory(user, "Pets", "Fish");
      const budget = await created(user, account, { auto_spend: ["Pets : Fish"] });
      const archived = await t.inject({
        method: "POST",
        url: `/api/v1/transaction-categories/${fish}/archive/`,
        headers: auth(user),
      });
      expect(archived.statusCode, archived.body).toBe(200);
      const fresh = await post(user, {
        name: "New",
        bank_account: account.id,
        ...goalFields,
        auto_spend: ["pets:fish"],
      });
      expect(fresh.statusCode).toBe(400);
      expect(fresh.json().auto_spend[0]).toMatch(/Pets : Fish.*archived/);
      // The budget that lists it already: sent back whole, or with another entry added, still fine.
      const same = await t.inject({
        method: "PUT",
        url: `/api/v1/budgets/${budget.id}/`,
        headers: auth(user),
        payload: { ...budget, memo: "still here" },
      });
      expect(same.statusCode, same.body).toBe(200);
      const more = await patch(user, budget.id, { auto_spend: ["Pets : Fish", "Home : Rent"] });
      expect(more.statusCode, more.body).toBe(200);
      expect(more.json().auto_spend).toEqual(["Pets : Fish", "Home : Rent"]);
      // Dropped once, it is a new entry again.
      expect((await patch(user, budget.id, { auto_spend: [] })).statusCode).toBe(200);
      const back = await patch(user, budget.id, { auto_spend: ["Pets : Fish"] });
      expect(back.statusCode).toBe(400);
      expect(back.json().auto_spend[0]).toMatch(/archived/);
    });

    it("takes form-encoded bodies: paused=false stays false", async () => {
      const user = await t.user();
      const account = await newAccount(user);
      const form = (fields: Record<string, string>) =>
        t.inject({
          method: "POST",
          url: "/api/v1/budgets/",
          headers: { ...auth(user), "content-type": "application/x-www-form-urlencoded" },
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

  describe("list and retrieve", () => {
    it("lists only the caller's budgets, the Unallocated one among them, with every filter", async () => {
      const user = await t.user();
      const other = await t.user();
      const account = await newAccount(user, "300.00");
      const second = await newAccount(user);
      await newAccount(other);
      const food = await created(user, account, { name: "food", paused: true });
      const Fun = await created(user, account, { name: "Fun_money", budget_type: "C" });
      const rent = await created(user, account, { name: "Rent", ...recurringFields });
      await created(user, second, { name: "Elsewhere" });
      await transfer(user, account, account.unallocated_budget, Fun.id, "70");
      await transfer(user, account, account.unallocated_budget, food.id, "20");
      expect((await archive(user, food.id)).statusCode).toBe(200);

      const all = await list(user, `?bank_account=${account.id}`);
      expect(all.count).toBe(5);
      const unallocated = all.results.find((b: { id: string }) => b.id === account.unallocated_budget);
      expect(unallocated).toMatchObject({
        name: "Unallocated",
        budget_type: "G",
        target_balance: "0.00",
        balance: "230.00",
      });
      const mine = await list(user);
      expect(mine.count).toBe(7);
      const names = (body: { results: { name: string }[] }) => body.results.map((b) => b.name);

      expect(names(await list(user, `?bank_account=${account.id}&archived=false`))).toEqual([
        "Fun_money",
        "Rent",
        "Rent Fill-up",
        "Unallocated",
      ]);
      expect(names(await list(user, `?bank_account=${account.id}&archived=true`))).toEqual(["food"]);
      expect(names(await list(user, "?budget_type=R"))).toEqual(["Rent"]);
      expect(names(await list(user, "?budget_type=A"))).toEqual(["Rent Fill-up"]);
      expect(names(await list(user, "?budget_type=C"))).toEqual(["Fun_money"]);
      expect(names(await list(user, "?paused=true"))).toEqual(["food"]);
      expect((await list(user, "?paused=false")).count).toBe(6);
      expect(names(await list(user, "?search=RENT"))).toEqual(["Rent", "Rent Fill-up"]);
      expect(names(await list(user, "?search=_"))).toEqual(["Fun_money"]);
      expect(names(await list(user, "?search=FILL-UP"))).toEqual(["Rent Fill-up"]);
      expect(names(await list(user, `?bank_account=${account.id}&ordering=-name`))).toEqual([
        "Unallocated",
        "Rent Fill-up",
        "Rent",
        "Fun_money",
        "food",
      ]);
      expect(names(await list(user, `?bank_account=${account.id}&ordering=-balance`))[0]).toBe("Unallocated");
      expect(names(await list(user, `?bank_account=${account.id}&ordering=balance`))[0]).not.toBe(
        "Unallocated",
      );
      expect(names(await list(user, `?bank_account=${account.id}&ordering=-balance`)).slice(0, 2)).toEqual([
        "Unallocated",
        "Fun_money",
      ]);
      expect(names(await list(user, `?bank_account=${account.id}&ordering=created_at`))[0]).toBe(
        "Unallocated",
      );
      // A Recurring budget and its fill-up goal are made in one transaction: same created_at.
      expect(
        names(await list(user, `?bank_account=${account.id}&ordering=-created_at`))
          .slice(0, 2)
          .sort(),
      ).toEqual(["Rent", "Rent Fill-up"]);
      // Another user's account filters to nothing.
      const foreign = (await t.db.select().from(bankAccounts).where(sql`true`)).find(
        (a) => a.id !== account.id && a.id !== second.id,
      );
      expect((await list(user, `?bank_account=${foreign?.id}`)).count).toBe(0);
      expect((await list(other, `?bank_account=${account.id}`)).count).toBe(0);

      const page = await list(user, `?bank_account=${account.id}&page_size=2&page=2`);
      expect(page.count).toBe(5);
      expect(page.results).toHaveLength(2);
      expect(page.next).toContain("page=3");
      expect(page.previous).toBeTruthy();
      const past = await t.inject({ url: "/api/v1/budgets/?page=9", headers: auth(user) });
      expect(past.statusCode).toBe(404);
      for (const [query, key] of [
        ["?archived=maybe", "archived"],
        ["?paused=2", "paused"],
        ["?budget_type=Q", "budget_type"],
        ["?ordering=memo", "ordering"],
        ["?bank_account=nope", "bank_account"],
        ["?page=0", "page"],
      ]) {
        const bad = await t.inject({ url: `/api/v1/budgets/${query}`, headers: auth(user) });
        expect(bad.statusCode, query).toBe(400);
        expect(bad.json()[key as string], query).toBeDefined();
      }
      expect(rent.fillup_goal).toBeTruthy();
      await expectLedgerOk(account);
    });
  });

  describe("update", () => {
    it("PATCH returns BudgetUpdateResult and mirrors name, target, funding schedule and pause onto the fill-up", async () => {
      const user = await t.user();
      const account = await newAccount(user);
      const rent = await created(user, account, { name: "Rent", ...recurringFields });
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
      expect(await row(rent.fillup_goal)).toMatchObject({
        name: "Flat Fill-up",
        targetBalance: "150.00",
        fundingSchedule: "DTSTART:20260201\nRRULE:FREQ=MONTHLY;BYMONTHDAY=1",
        paused: true,
      });
      expect((await row(rent.id))?.balance).toBe("0.00");
      // The fill-up's mirrored fields are edited through its Recurring budget only.
      const direct = await patch(user, rent.fillup_goal, { name: "Mine" });
      expect(direct.statusCode).toBe(400);
      expect(direct.json().name).toBeDefined();
      expect((await patch(user, rent.fillup_goal, { memo: "ok" })).statusCode).toBe(200);
      await expectLedgerOk(account);
    });

    it("PUT needs the required fields; bank_account and budget_type may only repeat the stored value", async () => {
      const user = await t.user();
      const account = await newAccount(user);
      const other = await newAccount(user);
      const goal = await created(user, account);
      const put = (payload: Record<string, unknown>) =>
        t.inject({ method: "PUT", url: `/api/v1/budgets/${goal.id}/`, headers: auth(user), payload });
      const missing = await put({ name: "x" });
      expect(missing.statusCode).toBe(400);
      expect(Object.keys(missing.json())).toEqual(expect.arrayContaining(["funding_type", "target_balance"]));
      // The whole resource sent back: read-only fields ignored, same account and type fine.
      const same = await put({ ...goal, name: "Renamed", balance: "12.00" });
      expect(same.statusCode, same.body).toBe(200);
      expect(same.json()).toMatchObject({ name: "Renamed", balance: "0.00", warnings: [] });
      const moved = await put({ ...goal, bank_account: other.id });
      expect(moved.statusCode).toBe(400);
      expect(moved.json().bank_account).toBeDefined();
      const retyped = await patch(user, goal.id, { budget_type: "C" });
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
      const account = await newAccount(user);
      const rent = await created(user, account, { name: "Rent", ...recurringFields });
      const goal = await created(user, account);
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
        expect(response.json()[field], JSON.stringify(fields)).toBeDefined();
      }
      const changed = await patch(user, goal.id, {
        funding_type: "D",
        target_date: "2027-06-30",
        auto_spend: [],
      });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json()).toMatchObject({ funding_type: "D", target_date: "2027-06-30" });
      const recurrence = await patch(user, rent.id, { recurrence_schedule: "DTSTART:20260110\nFREQ=YEARLY" });
      expect(recurrence.json().recurrence_schedule).toBe("DTSTART:20260110\nRRULE:FREQ=YEARLY");
    });

    it("refuses auto_spend on a fill-up goal (400 on auto_spend): its Recurring budget lists categories", async () => {
      const user = await t.user();
      const account = await newAccount(user);
      const rent = await created(user, account, { name: "Rent", ...recurringFields });
      const refused = await patch(user, rent.fillup_goal, { auto_spend: ["Food & Drink : Groceries"] });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(Object.keys(refused.json())).toEqual(["auto_spend"]);
      expect((await row(rent.fillup_goal))?.autoSpend).toEqual([]);
      // An empty list is no change; the Recurring budget itself takes the entries.
      expect((await patch(user, rent.fillup_goal, { auto_spend: [] })).statusCode).toBe(200);
      const onRent = await patch(user, rent.id, { auto_spend: ["Food & Drink : Groceries"] });
      expect(onRent.statusCode, onRent.body).toBe(200);
      expect((await row(rent.fillup_goal))?.autoSpend).toEqual([]);
    });

    it("routes spend to the one Goal, Capped or Recurring budget listing its category, paused ones too", async () => {
      const user = await t.user();
      const account = await newAccount(user);
      const groceries = await globalCategoryId(user, "Food & Drink : Groceries");
      const gas = await globalCategoryId(user, "Transportation : Gas");
      const rentCategory = await globalCategoryId(user, "Home : Rent");
      const rent = await created(user, account, {
        name: "Rent",
        ...recurringFields,
        paused: true,
        auto_spend: ["Food & Drink : Groceries"],
      });
      // A fill-up goal that got a list before the API refused it: routing never counts it.
      await t.db
        .update(budgets)
        .set({ autoSpend: ["Food & Drink : Groceries", "Transportation : Gas"] })
        .where(eq(budgets.id, rent.fillup_goal));
      const car = await created(user, account, {
        name: "Car",
        budget_type: "C",
        funding_amount: "20",
        auto_spend: ["Transportation : Gas"],
      });
      const flat = await created(user, account, { name: "Flat", auto_spend: ["Home : Rent"] });
      expect((await archive(user, flat.id)).statusCode).toBe(200);

      expect(await spend(user, account, groceries)).toBe(rent.id);
      expect(await spend(user, account, gas)).toBe(car.id);
      expect(await spend(user, account, rentCategory)).toBe(account.unallocated_budget);
      expect((await row(rent.fillup_goal))?.balance).toBe("0.00");
      await expectLedgerOk(account);
    });

    it("never renames the Unallocated budget (400 on name) but takes a memo", async () => {
      const user = await t.user();
      const account = await newAccount(user);
      const rename = await patch(user, account.unallocated_budget, { name: "Spare" });
      expect(rename.statusCode).toBe(400);
      expect(rename.json().name).toBeDefined();
      const target = await patch(user, account.unallocated_budget, { target_balance: "10" });
      expect(target.statusCode).toBe(400);
      const memo = await patch(user, account.unallocated_budget, { name: "Unallocated", memo: "float" });
      expect(memo.statusCode, memo.body).toBe(200);
      expect(memo.json()).toMatchObject({ name: "Unallocated", memo: "float", warnings: [] });
      expect((await row(account.unallocated_budget))?.name).toBe("Unallocated");
    });
  });

  describe("archive", () => {
    it("moves the balance and the fill-up goal's to Unallocated through recorded transfers", async () => {
      const user = await t.user();
      const account = await newAccount(user, "500.00");
      const rent = await created(user, account, { name: "Rent", ...recurringFields });
      await transfer(user, account, account.unallocated_budget, rent.id, "80.00");
      await transfer(user, account, account.unallocated_budget, rent.fillup_goal, "35.25");
      await expectLedgerOk(account);

      const response = await archive(user, rent.id);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({
        id: rent.id,
        archived: true,
        archived_at: expect.stringMatching(ISO_DATE_TIME),
        balance: "0.00",
      });
      expect(await row(rent.fillup_goal)).toMatchObject({
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
          [rent.fillup_goal, "35.25", user.id],
        ].sort(),
      );
      await expectLedgerOk(account);

      const again = await archive(user, rent.id);
      expect(again.statusCode).toBe(400);
      await expectLedgerOk(account);
    });

    it("makes a negative balance whole from Unallocated", async () => {
      const user = await t.user();
      const account = await newAccount(user, "100.00");
      const goal = await created(user, account);
      await allocate(user, account, goal.id, "-30.00");
      expect((await archive(user, goal.id)).statusCode).toBe(200);
      expect(await row(goal.id)).toMatchObject({ balance: "0.00", archived: true });
      expect((await row(account.unallocated_budget))?.balance).toBe("70.00");
      await expectLedgerOk(account);
    });

    it("refuses the Unallocated budget (403) and a fill-up goal on its own (400)", async () => {
      const user = await t.user();
      const account = await newAccount(user);
      expect((await archive(user, account.unallocated_budget)).statusCode).toBe(403);
      const rent = await created(user, account, { name: "Rent", ...recurringFields });
      expect((await archive(user, rent.fillup_goal)).statusCode).toBe(400);
      expect((await row(account.unallocated_budget))?.archived).toBe(false);
      await expectLedgerOk(account);
    });
  });

  describe("delete", () => {
    it("reverses transfers with other budgets, deletes the fill-up, and keeps the ledger right", async () => {
      const user = await t.user();
      const account = await newAccount(user, "1000.00");
      const rent = await created(user, account, { name: "Rent", ...recurringFields });
      const goal = await created(user, account, { name: "Goal" });
      const keep = await created(user, account, { name: "Keep" });
      await transfer(user, account, account.unallocated_budget, rent.id, "100.00");
      await transfer(user, account, account.unallocated_budget, keep.id, "40.00");
      await transfer(user, account, rent.id, goal.id, "30.00");
      await transfer(user, account, account.unallocated_budget, rent.fillup_goal, "20.00");
      await transfer(user, account, rent.fillup_goal, rent.id, "5.00");
      await transfer(user, account, goal.id, keep.id, "10.00");
      await allocate(user, account, account.unallocated_budget, "-50.00");
      await expectLedgerOk(account);

      const response = await remove(user, rent.id);
      expect(response.statusCode, response.body).toBe(204);
      expect(await row(rent.id)).toBeUndefined();
      expect(await row(rent.fillup_goal)).toBeUndefined();
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
      expect((await get(user, rent.id)).statusCode).toBe(404);
    });

    it("keeps an archived counterpart at zero: Unallocated takes the deleted budget's side of those transfers", async () => {
      const user = await t.user();
      const account = await newAccount(user, "1000.00");
      const gone = await created(user, account, { name: "Gone" });
      const closed = await created(user, account, { name: "Closed" });
      await transfer(user, account, account.unallocated_budget, gone.id, "10.00");
      await transfer(user, account, gone.id, closed.id, "10.00");
      await transfer(user, account, account.unallocated_budget, closed.id, "6.00");
      await transfer(user, account, closed.id, gone.id, "4.00");
      expect((await archive(user, closed.id)).statusCode).toBe(200);
      await expectLedgerOk(account);

      expect((await remove(user, gone.id)).statusCode).toBe(204);
      expect(await row(closed.id)).toMatchObject({ archived: true, balance: "0.00", fundedAmount: "0.00" });
      expect((await row(account.unallocated_budget))?.balance).toBe("1000.00");
      const moves = await t.db
        .select()
        .from(internalTransactions)
        .where(eq(internalTransactions.bankAccountId, account.id));
      const name = (id: string) =>
        id === closed.id ? "Closed" : id === account.unallocated_budget ? "U" : id;
      expect(moves.map((m) => `${name(m.srcBudgetId)}>${name(m.dstBudgetId)} ${m.amount}`).sort()).toEqual(
        ["U>Closed 10.00", "U>Closed 6.00", "Closed>U 4.00", "Closed>U 12.00"].sort(),
      );
      const [accountRow] = await t.db.select().from(bankAccounts).where(eq(bankAccounts.id, account.id));
      expect(accountRow?.availableBalance).toBe("1000.00");
      await expectLedgerOk(account);
    });

    it("moves a remaining balance that no transfer explains to Unallocated", async () => {
      const user = await t.user();
      const account = await newAccount(user, "100.00");
      const goal = await created(user, account);
      // An opening balance outside any event (as a future import might leave): 12.50 more in the account.
      await t.db.update(budgets).set({ balance: "12.50" }).where(eq(budgets.id, goal.id));
      await t.db
        .update(bankAccounts)
        .set({ availableBalance: "112.50" })
        .where(eq(bankAccounts.id, account.id));
      await transfer(user, account, account.unallocated_budget, goal.id, "7.50");
      await expectLedgerOk(account);
      expect((await remove(user, goal.id)).statusCode).toBe(204);
      expect((await row(account.unallocated_budget))?.balance).toBe("112.50");
      await expectLedgerOk(account);
    });

    it("refuses while the budget or its fill-up goal has allocations (400), and the Unallocated budget (403)", async () => {
      const user = await t.user();
      const account = await newAccount(user);
      const goal = await created(user, account);
      await allocate(user, account, goal.id, "-5.00");
      const own = await remove(user, goal.id);
      expect(own.statusCode).toBe(400);
      const rent = await created(user, account, { name: "Rent", ...recurringFields });
      await allocate(user, account, rent.fillup_goal, "-1.00");
      expect((await remove(user, rent.id)).statusCode).toBe(400);
      expect(await row(rent.id)).toBeDefined();
      expect((await remove(user, rent.fillup_goal)).statusCode).toBe(400);
      const unallocated = await remove(user, account.unallocated_budget);
      expect(unallocated.statusCode).toBe(403);
      expect(unallocated.json()).toMatchObject({ detail: expect.any(String), code: expect.any(String) });
      expect(await row(account.unallocated_budget)).toBeDefined();
      await expectLedgerOk(account);
      // Archiving instead works.
      expect((await archive(user, goal.id)).statusCode).toBe(200);
      await expectLedgerOk(account);
    });
  });

  describe("someone else's budget", () => {
    it("is 404 on every verb and stays unchanged", async () => {
      const owner = await t.user();
      const stranger = await t.user();
      const account = await newAccount(owner);
      const goal = await created(owner, account);
      await transfer(owner, account, account.unallocated_budget, goal.id, "10.00");
      for (const id of [goal.id, account.unallocated_budget, MISSING]) {
        const path = `/api/v1/budgets/${id}/`;
        for (const request of [
          { method: "GET" as const, url: path },
          {
            method: "PUT" as const,
            url: path,
            payload: { name: "Mine", funding_type: "F", target_balance: "1" },
          },
          { method: "PATCH" as const, url: path, payload: { name: "Mine" } },
          { method: "DELETE" as const, url: path },
          { method: "POST" as const, url: `${path}archive/` },
        ]) {
          const response = await t.inject({ ...request, headers: auth(stranger) });
          expect(response.statusCode, `${request.method} ${request.url}`).toBe(404);
        }
      }
      expect(await row(goal.id)).toMatchObject({ name: "Holiday", archived: false, balance: "10.00" });
      expect(
        (await t.inject({ url: "/api/v1/budgets/not-a-uuid/", headers: auth(owner) })).statusCode,
      ).toBeOneOf([400, 404]);
      await expectLedgerOk(account);
    });
  });

  it("answers every endpoint with 401 without credentials", async () => {
    const owner = await t.user();
    const account = await newAccount(owner);
    const goal = await created(owner, account);
    const path = `/api/v1/budgets/${goal.id}/`;
    for (const request of [
      { method: "GET" as const, url: "/api/v1/budgets/" },
      {
        method: "POST" as const,
        url: "/api/v1/budgets/",
        payload: { name: "x", bank_account: account.id, ...goalFields },
      },
      { method: "GET" as const, url: path },
      { method: "PUT" as const, url: path, payload: { name: "x", funding_type: "F", target_balance: "1" } },
      { method: "PATCH" as const, url: path, payload: { name: "x" } },
      { method: "DELETE" as const, url: path },
      { method: "POST" as const, url: `${path}archive/` },
    ]) {
      const response = await t.inject(request);
      expect(response.statusCode, `${request.method} ${request.url}`).toBe(401);
    }
    expect(await row(goal.id)).toMatchObject({ name: "Holiday", archived: false });
  });

  it("takes API keys", async () => {
    const user = await t.user();
    const account = await newAccount(user);
    const response = await t.inject({
      method: "POST",
      url: "/api/v1/budgets/",
      headers: { authorization: await t.apiKey(user) },
      payload: { name: "By key", bank_account: account.id, ...goalFields },
    });
    expect(response.statusCode, response.body).toBe(201);
  });
});
