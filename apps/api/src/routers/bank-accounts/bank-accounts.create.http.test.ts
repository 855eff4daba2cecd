import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { ISO_DATE_TIME, UUID, useBankAccountsKit } from "../../../test/testing/bank-accounts-test-kit";
import { useTestApp } from "../../../test/testing/test-app";

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

describe.each(testEngines())("bank accounts over HTTP: create (%s)", (engine) => {
  const t = useTestApp(engine);
  const { banks, create, createdAccount, get, budgetsOf } = useBankAccountsKit(t);

  describe("create", () => {
    it("makes the caller the owner and creates the Unallocated budget with the available balance", async () => {
      const user = await t.user();
      const response = await create(user, {
        name: "  Household  ",
        bank: banks.euro,
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
        bank: banks.euro,
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

      const fetched = await get(user, account.id);
      expect(fetched.statusCode).toBe(200);
      expect(fetched.json()).toEqual(account);
    });

    it("defaults the currency to the bank's, balances to zero, type to checking and auto funding to off", async () => {
      const user = await t.user();
      const account = await createdAccount(user, { bank: banks.dollar });
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
          headers: { authorization: user.bearer, "content-type": "application/x-www-form-urlencoded" },
          payload: new URLSearchParams(fields).toString(),
        });
      const off = await post({
        name: "Form",
        bank: banks.euro,
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
        bank: banks.euro,
        auto_funding_enabled: "true",
        account_number: "",
      });
      expect(on.statusCode, on.body).toBe(201);
      expect(on.json()).toMatchObject({ auto_funding_enabled: true, account_number: null });
      const bad = await post({ name: "Form bad", bank: banks.euro, auto_funding_enabled: "maybe" });
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(bad.json())).toEqual(["auto_funding_enabled"]);
    });

    it("accepts a multipart body", async () => {
      const user = await t.user();
      const { payload, contentType } = multipartBody({
        name: "Multipart",
        bank: banks.dollar,
        account_type: "X",
        posted_balance: "-99.99",
        auto_funding_enabled: "false",
      });
      const response = await t.inject({
        method: "POST",
        url: "/api/v1/bank-accounts/",
        headers: { authorization: user.bearer, "content-type": contentType },
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
      const response = await create(user, { name: "X", bank: banks.euro, currency });
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json())).toEqual(["currency"]);
    });

    it("refuses a balance currency other than the account's, naming the account's", async () => {
      const user = await t.user();
      const response = await create(user, {
        name: "X",
        bank: banks.euro,
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
        bank: banks.euro,
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
        const response = await create(user, { name: "X", bank: banks.euro, [field]: value });
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
        const response = await create(user, { name: "X", bank: banks.euro, ...fields });
        expect(response.statusCode, JSON.stringify(fields)).toBe(400);
        expect(Object.keys(response.json())).toEqual([key]);
      }
      expect(
        (await create(user, { name: "n".repeat(200), bank: banks.euro, account_number: "1".repeat(32) }))
          .statusCode,
      ).toBe(201);
    });

    it("answers 401 without credentials and takes API keys", async () => {
      const anonymous = await t.anonymous.call(bankAccountRoutes.create, { name: "X", bank: banks.euro });
      expect(anonymous.statusCode).toBe(401);
      const user = await t.user();
      const response = await t
        .as(await t.apiKey(user))
        .call(bankAccountRoutes.create, { name: "By key", bank: banks.euro });
      expect(response.statusCode).toBe(201);
      expect(response.json().owners).toEqual([user.username]);
    });
  });
});
