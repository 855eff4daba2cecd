import { bankAccountOwners, bankAccounts } from "@allot/db/schema/bank-accounts";
import { budgets } from "@allot/db/schema/budgets";
import { users } from "@allot/db/schema/users";
import { testEngines } from "@allot/db/testing/test-databases";
import { createBank } from "@allot/domain/banks/create-bank";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type TestUser, useTestApp } from "../../../test/testing/test-app";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** numeric(14,2) text as integer cents, to add balances without floats. */
const cents = (amount: string) => BigInt(amount.replace(".", ""));

/** A multipart/form-data body built by hand: one text part per field. */
function multipartBody(fields: Record<string, string>) {
  const boundary = "----allot-bank-accounts-boundary";
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return {
    payload: `${parts.join("")}--${boundary}--\r\n`,
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

describe.each(testEngines())("bank accounts over HTTP (%s)", (engine) => {
  const t = useTestApp(engine);
  let euroBank: string;
  let dollarBank: string;

  beforeAll(async () => {
    euroBank = (await createBank(t.db, { name: "Euro Bank", currency: "EUR" })).id;
    dollarBank = (await createBank(t.db, { name: "Dollar Bank", currency: "USD" })).id;
  });

  const auth = (user: TestUser) => ({ authorization: user.bearer });
  const create = (user: TestUser, payload: Record<string, unknown>) =>
    t.inject({ method: "POST", url: "/api/v1/bank-accounts/", headers: auth(user), payload });
  const createdAccount = async (user: TestUser, payload: Record<string, unknown> = {}) => {
    const response = await create(user, { name: "Checking", bank: euroBank, ...payload });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  };
  const budgetsOf = (accountId: string) =>
    t.db.select().from(budgets).where(eq(budgets.bankAccountId, accountId));

  describe("create", () => {
    it("makes the caller the owner and creates the Unallocated budget with the available balance", async () => {
      const user = await t.user();
      const response = await create(user, {
        name: "  Household  ",
        bank: euroBank,
        account_type: "S",
        account_number: "DE-1234",
        posted_balance: "1200.5",
        available_balance: 1000.25,
        available_balance_currency: "eur",
        auto_funding_enabled: true,
      });
      expect(response.statusCode, response.body).toBe(201);
      const account = response.json();
      expect(account).toEqual({
        id: expect.stringMatching(UUID),
        name: "Household",
        bank: euroBank,
        owners: [user.username],
        account_type: "S",
        account_number: "DE-1234",
        currency: "EUR",
        posted_balance: "1200.50",
        posted_balance_currency: "EUR",
        available_balance: "1000.25",
        available_balance_currency: "EUR",
        unallocated_budget: expect.stringMatching(UUID),
        auto_funding_enabled: true,
        last_imported_at: null,
        last_posted_through: null,
        timezone: "America/Los_Angeles", // the first owner's, the default
        created_at: expect.stringMatching(ISO_DATE_TIME),
        modified_at: expect.stringMatching(ISO_DATE_TIME),
      });

      const rows = await budgetsOf(account.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        id: account.unallocated_budget,
        name: "Unallocated",
        budgetType: "G",
        fundingType: "F",
        isUnallocated: true,
        targetBalance: "0.00",
        balance: "1000.25",
      });
      // available_balance = sum of the budget balances
      const sum = rows.reduce((total, row) => total + cents(row.balance), 0n);
      expect(sum).toBe(cents(account.available_balance));

      const fetched = await t.inject({ url: `/api/v1/bank-accounts/${account.id}/`, headers: auth(user) });
      expect(fetched.statusCode).toBe(200);
      expect(fetched.json()).toEqual(account);
    });

    it("defaults the currency to the bank's, balances to zero, type to checking and auto funding to off", async () => {
      const user = await t.user();
      const account = await createdAccount(user, { bank: dollarBank });
      expect(account).toMatchObject({
        currency: "USD",
        posted_balance: "0.00",
        posted_balance_currency: "USD",
        available_balance: "0.00",
        account_type: "C",
        account_number: null,
        auto_funding_enabled: false,
      });
      expect((await budgetsOf(account.id))[0]?.balance).toBe("0.00");
    });

    it("takes another current currency than the bank's, and negative balances", async () => {
      const user = await t.user();
      const account = await createdAccount(user, {
        currency: "gbp",
        posted_balance: "-20.10",
        available_balance: "-25",
        posted_balance_currency: "GBP",
      });
      expect(account).toMatchObject({
        currency: "GBP",
        posted_balance: "-20.10",
        available_balance: "-25.00",
      });
      expect((await budgetsOf(account.id))[0]?.balance).toBe("-25.00");
    });

    it("accepts a form-encoded body, and auto_funding_enabled=false stays false", async () => {
      const user = await t.user();
      const post = (fields: Record<string, string>) =>
        t.inject({
          method: "POST",
          url: "/api/v1/bank-accounts/",
          headers: { ...auth(user), "content-type": "application/x-www-form-urlencoded" },
          payload: new URLSearchParams(fields).toString(),
        });
      const off = await post({
        name: "Form",
        bank: euroBank,
        auto_funding_enabled: "false",
        available_balance: "10.5",
      });
      expect(off.statusCode, off.body).toBe(201);
      expect(off.json()).toMatchObject({
        name: "Form",
        auto_funding_enabled: false,
        available_balance: "10.50",
      });
      const on = await post({
        name: "Form on",
        bank: euroBank,
        auto_funding_enabled: "true",
        account_number: "",
      });
      expect(on.statusCode, on.body).toBe(201);
      expect(on.json()).toMatchObject({ auto_funding_enabled: true, account_number: null });
      const bad = await post({ name: "Form bad", bank: euroBank, auto_funding_enabled: "maybe" });
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(bad.json())).toEqual(["auto_funding_enabled"]);
    });

    it("accepts a multipart body", async () => {
      const user = await t.user();
      const { payload, contentType } = multipartBody({
        name: "Multipart",
        bank: dollarBank,
        account_type: "X",
        posted_balance: "-99.99",
        auto_funding_enabled: "false",
      });
      const response = await t.inject({
        method: "POST",
        url: "/api/v1/bank-accounts/",
        headers: { ...auth(user), "content-type": contentType },
        payload,
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toMatchObject({
        name: "Multipart",
        account_type: "X",
        currency: "USD",
        posted_balance: "-99.99",
        auto_funding_enabled: false,
        owners: [user.username],
      });
    });

    it("requires name and bank", async () => {
      const user = await t.user();
      const response = await create(user, {});
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json()).sort()).toEqual(["bank", "name"]);
      expect(response.json().name).toEqual(["This field is required."]);
    });

    it("refuses an unknown bank with 400 on bank", async () => {
      const user = await t.user();
      const unknown = await create(user, { name: "X", bank: "00000000-0000-4000-8000-000000000000" });
      expect(unknown.statusCode).toBe(400);
      expect(Object.keys(unknown.json())).toEqual(["bank"]);
      expect(unknown.json().bank[0]).toMatch(/does not exist/);
      const malformed = await create(user, { name: "X", bank: "not-a-uuid" });
      expect(malformed.statusCode).toBe(400);
      expect(Object.keys(malformed.json())).toEqual(["bank"]);
    });

    it.each([
      ["a code that does not exist", "XYZ"],
      ["a historic code", "DEM"],
      ["a malformed code", "EURO"],
    ])("refuses %s as the currency", async (_label, currency) => {
      const user = await t.user();
      const response = await create(user, { name: "X", bank: euroBank, currency });
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json())).toEqual(["currency"]);
    });

    it("refuses a balance currency other than the account's, naming the account's", async () => {
      const user = await t.user();
      const response = await create(user, {
        name: "X",
        bank: euroBank,
        posted_balance: "1.00",
        posted_balance_currency: "USD",
        available_balance_currency: "EUR",
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        posted_balance_currency: ["Must be the bank account's currency, 'EUR'."],
      });
      const explicit = await create(user, {
        name: "X",
        bank: euroBank,
        currency: "USD",
        available_balance_currency: "EUR",
      });
      expect(explicit.statusCode).toBe(400);
      expect(explicit.json()).toEqual({
        available_balance_currency: ["Must be the bank account's currency, 'USD'."],
      });
    });

    it.each([
      ["13 integer digits", "1234567890123"],
      ["3 decimal places", "1.234"],
      ["a non-number", "ten"],
      ["an exponent", "1e5"],
      ["a float", 0.1 + 0.2],
    ])("refuses %s as a balance", async (_label, value) => {
      const user = await t.user();
      for (const field of ["posted_balance", "available_balance"]) {
        const response = await create(user, { name: "X", bank: euroBank, [field]: value });
        expect(response.statusCode, `${field}=${value}`).toBe(400);
        expect(Object.keys(response.json())).toEqual([field]);
      }
    });

    it("takes the largest amounts the pattern allows", async () => {
      const user = await t.user();
      const account = await createdAccount(user, {
        posted_balance: "999999999999.99",
        available_balance: "-999999999999.99",
      });
      expect(account).toMatchObject({
        posted_balance: "999999999999.99",
        available_balance: "-999999999999.99",
      });
    });

    it("checks name, account number and account type", async () => {
      const user = await t.user();
      const cases: [Record<string, unknown>, string][] = [
        [{ name: "   " }, "name"],
        [{ name: "n".repeat(201) }, "name"],
        [{ account_number: "1".repeat(33) }, "account_number"],
        [{ account_type: "Z" }, "account_type"],
      ];
      for (const [fields, key] of cases) {
        const response = await create(user, { name: "X", bank: euroBank, ...fields });
        expect(response.statusCode, JSON.stringify(fields)).toBe(400);
        expect(Object.keys(response.json())).toEqual([key]);
      }
      expect(
        (await create(user, { name: "n".repeat(200), bank: euroBank, account_number: "1".repeat(32) }))
          .statusCode,
      ).toBe(201);
    });

    it("answers 401 without credentials and takes API keys", async () => {
      const anonymous = await t.inject({
        method: "POST",
        url: "/api/v1/bank-accounts/",
        payload: { name: "X", bank: euroBank },
      });
      expect(anonymous.statusCode).toBe(401);
      const user = await t.user();
      const response = await t.inject({
        method: "POST",
        url: "/api/v1/bank-accounts/",
        headers: { authorization: await t.apiKey(user) },
        payload: { name: "By key", bank: euroBank },
      });
      expect(response.statusCode).toBe(201);
      expect(response.json().owners).toEqual([user.username]);
    });
  });

  describe("list", () => {
    it("lists only the caller's accounts, filtered, ordered and paginated", async () => {
      const user = await t.user();
      const other = await t.user();
      await createdAccount(other, { name: "Not mine" });
      const b = await createdAccount(user, { name: "Bravo", account_type: "S" });
      const a = await createdAccount(user, { name: "alpha" });
      const c = await createdAccount(user, { name: "Charlie", account_type: "X" });
      const list = (query: string, who = user) =>
        t.inject({ url: `/api/v1/bank-accounts/${query}`, headers: auth(who) });
      const names = async (query: string) => {
        const response = await list(query);
        expect(response.statusCode, response.body).toBe(200);
        return response.json().results.map((r: { name: string }) => r.name);
      };

      const all = (await list("")).json();
      expect(all.count).toBe(3);
      expect(all.next).toBeNull();
      expect(all.previous).toBeNull();
      expect(all.results.map((r: { id: string }) => r.id).sort()).toEqual([a.id, b.id, c.id].sort());
      expect(all.results.find((r: { id: string }) => r.id === a.id)).toEqual(a);

      expect(await names("")).toEqual(["alpha", "Bravo", "Charlie"]);
      expect(await names("?ordering=name")).toEqual(["alpha", "Bravo", "Charlie"]);
      expect(await names("?ordering=-name")).toEqual(["Charlie", "Bravo", "alpha"]);
      expect(await names("?ordering=created_at")).toEqual(["Bravo", "alpha", "Charlie"]);
      expect(await names("?ordering=-created_at")).toEqual(["Charlie", "alpha", "Bravo"]);
      expect(await names("?account_type=S")).toEqual(["Bravo"]);
      expect(await names("?account_type=X&ordering=name")).toEqual(["Charlie"]);
      expect(await names("?account_type=S&ordering=-created_at")).toEqual(["Bravo"]);

      const first = (await list("?ordering=created_at&page_size=2")).json();
      expect(first.count).toBe(3);
      expect(first.results.map((r: { name: string }) => r.name)).toEqual(["Bravo", "alpha"]);
      expect(first.previous).toBeNull();
      const nextUrl = new URL(first.next);
      expect(nextUrl.searchParams.get("page")).toBe("2");
      expect(nextUrl.searchParams.get("ordering")).toBe("created_at");
      const second = (await list(nextUrl.search)).json();
      expect(second.results.map((r: { name: string }) => r.name)).toEqual(["Charlie"]);
      expect(second.next).toBeNull();
      expect(second.previous).toContain("page=1");

      const past = await list("?page=3&page_size=2");
      expect(past.statusCode).toBe(404);
      expect(past.json()).toEqual({ detail: "Invalid page.", code: "not_found" });
      expect((await list("?page=2")).statusCode).toBe(404);

      const capped = await list("?page_size=100000");
      expect(capped.statusCode).toBe(200);
      expect(capped.json().count).toBe(3);

      const empty = (await list("", await t.user())).json();
      expect(empty).toEqual({ count: 0, next: null, previous: null, results: [] });
    });

    it("caps page_size at 500", async () => {
      const user = await t.user();
      // 501 accounts straight into the database: creating them over HTTP would only be slower.
      const rows = await t.db
        .insert(bankAccounts)
        .values(
          Array.from({ length: 501 }, (_, i) => ({ name: `Bulk ${i}`, bankId: euroBank, currency: "EUR" })),
        )
        .returning({ id: bankAccounts.id });
      await t.db
        .insert(bankAccountOwners)
        .values(rows.map(({ id }) => ({ bankAccountId: id, userId: user.id })));

      const first = await t.inject({ url: "/api/v1/bank-accounts/?page_size=10000", headers: auth(user) });
      expect(first.statusCode).toBe(200);
      expect(first.json().count).toBe(501);
      expect(first.json().results).toHaveLength(500);
      const next = new URL(first.json().next);
      expect(next.searchParams.get("page_size")).toBe("500");
      const second = await t.inject({ url: `/api/v1/bank-accounts/${next.search}`, headers: auth(user) });
      expect(second.json().results).toHaveLength(1);
      expect(second.json().next).toBeNull();
      const past = await t.inject({
        url: "/api/v1/bank-accounts/?page_size=501&page=3",
        headers: auth(user),
      });
      expect(past.statusCode).toBe(404);
    });

    it("refuses bad parameters with 400 on the parameter, and anonymous callers with 401", async () => {
      const user = await t.user();
      for (const [query, key] of [
        ["?account_type=Q", "account_type"],
        ["?ordering=balance", "ordering"],
        ["?page=0", "page"],
        ["?page_size=0", "page_size"],
        ["?page=two", "page"],
      ]) {
        const response = await t.inject({ url: `/api/v1/bank-accounts/${query}`, headers: auth(user) });
        expect(response.statusCode, query).toBe(400);
        expect(Object.keys(response.json())).toEqual([key]);
      }
      expect((await t.inject({ url: "/api/v1/bank-accounts/" })).statusCode).toBe(401);
    });
  });

  describe("update", () => {
    it("changes name, account number and auto funding with PATCH", async () => {
      const user = await t.user();
      const account = await createdAccount(user, { account_number: "111" });
      const patch = await t.inject({
        method: "PATCH",
        url: `/api/v1/bank-accounts/${account.id}/`,
        headers: auth(user),
        payload: { name: "Renamed", auto_funding_enabled: true },
      });
      expect(patch.statusCode, patch.body).toBe(200);
      expect(patch.json()).toMatchObject({
        name: "Renamed",
        account_number: "111",
        auto_funding_enabled: true,
      });
      expect(patch.json().modified_at >= account.modified_at).toBe(true);

      const cleared = await t.inject({
        method: "PATCH",
        url: `/api/v1/bank-accounts/${account.id}/`,
        headers: auth(user),
        payload: { account_number: null },
      });
      expect(cleared.json()).toMatchObject({ name: "Renamed", account_number: null });

      // A form-encoded false stays false.
      const form = await t.inject({
        method: "PATCH",
        url: `/api/v1/bank-accounts/${account.id}/`,
        headers: { ...auth(user), "content-type": "application/x-www-form-urlencoded" },
        payload: "auto_funding_enabled=false&account_number=222",
      });
      expect(form.statusCode, form.body).toBe(200);
      expect(form.json()).toMatchObject({ auto_funding_enabled: false, account_number: "222" });

      const empty = await t.inject({
        method: "PATCH",
        url: `/api/v1/bank-accounts/${account.id}/`,
        headers: auth(user),
        payload: {},
      });
      expect(empty.statusCode).toBe(200);
      expect(empty.json()).toEqual(form.json());
    });

    it("accepts the immutable fields with PUT when they repeat the stored values", async () => {
      const user = await t.user();
      const account = await createdAccount(user, {
        account_type: "S",
        posted_balance: "10",
        available_balance: "7.5",
      });
      const put = await t.inject({
        method: "PUT",
        url: `/api/v1/bank-accounts/${account.id}/`,
        headers: auth(user),
        payload: {
          name: "Put name",
          bank: euroBank.toUpperCase(),
          account_type: "S",
          currency: "eur",
          posted_balance: "10.00",
          posted_balance_currency: "EUR",
          available_balance: "7.50",
          available_balance_currency: "EUR",
          account_number: "9",
          auto_funding_enabled: true,
        },
      });
      expect(put.statusCode, put.body).toBe(200);
      expect(put.json()).toMatchObject({
        name: "Put name",
        account_number: "9",
        auto_funding_enabled: true,
        posted_balance: "10.00",
        available_balance: "7.50",
        currency: "EUR",
      });
    });

    it("requires name and bank on PUT", async () => {
      const user = await t.user();
      const account = await createdAccount(user);
      const put = await t.inject({
        method: "PUT",
        url: `/api/v1/bank-accounts/${account.id}/`,
        headers: auth(user),
        payload: { account_number: "1" },
      });
      expect(put.statusCode).toBe(400);
      expect(Object.keys(put.json()).sort()).toEqual(["bank", "name"]);
    });

    it.each([
      ["bank", () => ({ bank: "00000000-0000-4000-8000-000000000000" })],
      ["account_type", () => ({ account_type: "X" })],
      ["currency", () => ({ currency: "USD" })],
      ["posted_balance", () => ({ posted_balance: "10.01" })],
      ["available_balance", () => ({ available_balance: "0" })],
    ])("refuses a changed %s with 400 on the field and changes nothing", async (field, fields) => {
      const user = await t.user();
      const account = await createdAccount(user, { posted_balance: "10", available_balance: "5" });
      for (const method of ["PATCH", "PUT"] as const) {
        const response = await t.inject({
          method,
          url: `/api/v1/bank-accounts/${account.id}/`,
          headers: auth(user),
          payload: { name: "Should not stick", bank: euroBank, ...fields() },
        });
        expect(response.statusCode, `${method} ${response.body}`).toBe(400);
        expect(Object.keys(response.json())).toEqual([field]);
      }
      const after = await t.inject({ url: `/api/v1/bank-accounts/${account.id}/`, headers: auth(user) });
      expect(after.json()).toEqual(account);
    });

    it("refuses a dollar bank too (a different bank is a change even when it exists)", async () => {
      const user = await t.user();
      const account = await createdAccount(user);
      const response = await t.inject({
        method: "PATCH",
        url: `/api/v1/bank-accounts/${account.id}/`,
        headers: auth(user),
        payload: { bank: dollarBank, account_type: "S", posted_balance_currency: "USD" },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        bank: [expect.any(String)],
        account_type: [expect.any(String)],
        posted_balance_currency: ["Must be the bank account's currency, 'EUR'."],
      });
    });

    it("checks the decimal pattern and field limits on update", async () => {
      const user = await t.user();
      const account = await createdAccount(user);
      for (const [fields, key] of [
        [{ posted_balance: "1234567890123" }, "posted_balance"],
        [{ available_balance: "0.001" }, "available_balance"],
        [{ name: "" }, "name"],
        [{ account_number: "x".repeat(33) }, "account_number"],
      ] as const) {
        const response = await t.inject({
          method: "PATCH",
          url: `/api/v1/bank-accounts/${account.id}/`,
          headers: auth(user),
          payload: fields,
        });
        expect(response.statusCode, JSON.stringify(fields)).toBe(400);
        expect(Object.keys(response.json())).toEqual([key]);
      }
    });

    it("works with an API key", async () => {
      const user = await t.user();
      const account = await createdAccount(user);
      const response = await t.inject({
        method: "PATCH",
        url: `/api/v1/bank-accounts/${account.id}/`,
        headers: { authorization: await t.apiKey(user) },
        payload: { name: "Via key" },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().name).toBe("Via key");
    });
  });

  describe("mark-imported", () => {
    it("sets last_imported_at and moves last_posted_through forward only", async () => {
      const user = await t.user();
      const account = await createdAccount(user);
      const mark = (date: unknown, headers = auth(user)) =>
        t.inject({
          method: "POST",
          url: `/api/v1/bank-accounts/${account.id}/mark-imported/`,
          headers,
          payload: date === undefined ? {} : { last_posted_through: date },
        });

      const before = Date.now();
      const first = await mark("2024-03-10");
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json().last_posted_through).toBe("2024-03-10");
      const importedAt = Date.parse(first.json().last_imported_at);
      expect(importedAt).toBeGreaterThanOrEqual(before - 1000);

      const older = await mark("2024-02-01");
      expect(older.statusCode).toBe(200);
      expect(older.json().last_posted_through).toBe("2024-03-10");
      expect(Date.parse(older.json().last_imported_at)).toBeGreaterThanOrEqual(importedAt);

      const newer = await mark("2024-04-01", { authorization: await t.apiKey(user) });
      expect(newer.statusCode).toBe(200);
      expect(newer.json().last_posted_through).toBe("2024-04-01");

      for (const bad of [undefined, "2024-02-30", "04/01/2024", "", "2024-04-01T00:00:00Z"]) {
        const response = await mark(bad);
        expect(response.statusCode, String(bad)).toBe(400);
        expect(Object.keys(response.json())).toEqual(["last_posted_through"]);
      }
      const after = await t.inject({ url: `/api/v1/bank-accounts/${account.id}/`, headers: auth(user) });
      expect(after.json().last_posted_through).toBe("2024-04-01");
    });
  });

  describe("delete", () => {
    it("deletes the account with its budgets and clears owners' default account", async () => {
      const user = await t.user();
      const account = await createdAccount(user);
      const keep = await createdAccount(user, { name: "Keep" });
      const setDefault = await t.inject({
        method: "PATCH",
        url: "/api/v1/users/me/",
        headers: auth(user),
        payload: { default_bank_account: account.id },
      });
      expect(setDefault.json().default_bank_account).toBe(account.id);

      const response = await t.inject({
        method: "DELETE",
        url: `/api/v1/bank-accounts/${account.id}/`,
        headers: auth(user),
      });
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe("");
      expect(
        (await t.inject({ url: `/api/v1/bank-accounts/${account.id}/`, headers: auth(user) })).statusCode,
      ).toBe(404);
      expect(await budgetsOf(account.id)).toEqual([]);
      expect(await budgetsOf(keep.id)).toHaveLength(1);
      const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
      expect(row?.defaultBankAccountId).toBeNull();
      const again = await t.inject({
        method: "DELETE",
        url: `/api/v1/bank-accounts/${account.id}/`,
        headers: auth(user),
      });
      expect(again.statusCode).toBe(404);
    });

    it("needs an interactive login: an API key gets 403 and nothing is deleted", async () => {
      const user = await t.user();
      const account = await createdAccount(user);
      const response = await t.inject({
        method: "DELETE",
        url: `/api/v1/bank-accounts/${account.id}/`,
        headers: { authorization: await t.apiKey(user) },
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().code).toBe("interactive_login_required");
      expect(
        (await t.inject({ url: `/api/v1/bank-accounts/${account.id}/`, headers: auth(user) })).statusCode,
      ).toBe(200);
      expect(
        (await t.inject({ method: "DELETE", url: `/api/v1/bank-accounts/${account.id}/` })).statusCode,
      ).toBe(401);
    });
  });

  describe("someone else's account", () => {
    it("is 404 on every verb and action, for staff too, and stays unchanged", async () => {
      const owner = await t.user();
      const account = await createdAccount(owner, { name: "Private" });
      const stranger = await t.user();
      const staff = await t.user({ staff: true });
      const path = `/api/v1/bank-accounts/${account.id}/`;
      for (const intruder of [stranger, staff]) {
        const requests = [
          { method: "GET" as const, url: path },
          { method: "PUT" as const, url: path, payload: { name: "Mine now", bank: euroBank } },
          { method: "PATCH" as const, url: path, payload: { name: "Mine now" } },
          { method: "DELETE" as const, url: path },
          {
            method: "POST" as const,
            url: `${path}mark-imported/`,
            payload: { last_posted_through: "2024-01-01" },
          },
        ];
        for (const request of requests) {
          const response = await t.inject({ ...request, headers: auth(intruder) });
          expect(response.statusCode, `${request.method} ${request.url}`).toBe(404);
          expect(response.json()).toEqual({ detail: expect.any(String), code: "not_found" });
        }
        const listed = await t.inject({ url: "/api/v1/bank-accounts/", headers: auth(intruder) });
        expect(listed.json().results.map((r: { id: string }) => r.id)).not.toContain(account.id);
      }
      const after = await t.inject({ url: path, headers: auth(owner) });
      expect(after.json()).toEqual(account);
    });

    it("targets the account in the path, whatever id the body carries", async () => {
      const user = await t.user();
      const mine = await createdAccount(user, { name: "Mine" });
      const theirs = await createdAccount(await t.user(), { name: "Theirs" });
      const response = await t.inject({
        method: "PATCH",
        url: `/api/v1/bank-accounts/${mine.id}/`,
        headers: auth(user),
        payload: { id: theirs.id, name: "Renamed", owners: ["someone"], unallocated_budget: null },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        id: mine.id,
        name: "Renamed",
        owners: [user.username],
        unallocated_budget: mine.unallocated_budget,
      });
    });

    it("answers every endpoint with 401 without credentials", async () => {
      const owner = await t.user();
      const account = await createdAccount(owner);
      const path = `/api/v1/bank-accounts/${account.id}/`;
      for (const request of [
        { method: "GET" as const, url: "/api/v1/bank-accounts/" },
        { method: "GET" as const, url: path },
        { method: "PUT" as const, url: path, payload: { name: "x", bank: euroBank } },
        { method: "PATCH" as const, url: path, payload: { name: "x" } },
        { method: "DELETE" as const, url: path },
        {
          method: "POST" as const,
          url: `${path}mark-imported/`,
          payload: { last_posted_through: "2024-01-01" },
        },
      ]) {
        const response = await t.inject(request);
        expect(response.statusCode, `${request.method} ${request.url}`).toBe(401);
        expect(response.json().code).toBe("not_authenticated");
      }
      expect((await t.inject({ url: path, headers: auth(owner) })).json()).toEqual(account);
    });

    it("answers an unknown or malformed id with 404", async () => {
      const user = await t.user();
      for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
        const response = await t.inject({ url: `/api/v1/bank-accounts/${id}/`, headers: auth(user) });
        expect(response.statusCode, id).toBe(404);
      }
    });
  });

  it("keeps the balances and Unallocated budget consistent under concurrent updates", async () => {
    const user = await t.user();
    const account = await createdAccount(user, { available_balance: "50" });
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        t.inject({
          method: i % 2 ? "PATCH" : "POST",
          url:
            i % 2
              ? `/api/v1/bank-accounts/${account.id}/`
              : `/api/v1/bank-accounts/${account.id}/mark-imported/`,
          headers: auth(user),
          payload: i % 2 ? { name: `Name ${i}` } : { last_posted_through: `2024-01-0${i + 1}` },
        }),
      ),
    );
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    const after = (
      await t.inject({ url: `/api/v1/bank-accounts/${account.id}/`, headers: auth(user) })
    ).json();
    expect(after.last_posted_through).toBe("2024-01-05");
    expect(after.available_balance).toBe("50.00");
    expect((await budgetsOf(account.id)).map((b) => b.balance)).toEqual(["50.00"]);
  });
});
