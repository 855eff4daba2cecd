import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { useBankAccountsKit } from "../../../test/testing/bank-accounts-test-kit";
import { useTestApp } from "../../../test/testing/test-app";
import type { Caller } from "../../../test/testing/test-client";

describe.each(testEngines())("bank accounts over HTTP: update (%s)", (engine) => {
  const t = useTestApp(engine);
  const { banks, createdAccount, get, budgetsOf } = useBankAccountsKit(t);

  describe("update", () => {
    it("changes name, account number and auto funding with PATCH", async () => {
      const user = await t.user();
      const account = await createdAccount(user, { account_number: "111" });
      const patch = await t
        .as(user)
        .call(bankAccountRoutes.update, { id: account.id, name: "Renamed", auto_funding_enabled: true });
      expect(patch.statusCode, patch.body).toBe(200);
      expect(patch.json()).toMatchObject({
        name: "Renamed",
        account_number: "111",
        auto_funding_enabled: true,
      });
      expect(patch.json().modified_at >= account.modified_at).toBe(true);

      const cleared = await t
        .as(user)
        .call(bankAccountRoutes.update, { id: account.id, account_number: null });
      expect(cleared.json()).toMatchObject({ name: "Renamed", account_number: null });

      // A form-encoded false stays false.
      const form = await t.inject({
        method: "PATCH",
        url: `/api/v1/bank-accounts/${account.id}/`,
        headers: { authorization: user.bearer, "content-type": "application/x-www-form-urlencoded" },
        payload: "auto_funding_enabled=false&account_number=222",
      });
      expect(form.statusCode, form.body).toBe(200);
      expect(form.json()).toMatchObject({ auto_funding_enabled: false, account_number: "222" });

      const empty = await t.as(user).call(bankAccountRoutes.update, { id: account.id });
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
      const put = await t.as(user).call(bankAccountRoutes.replace, {
        id: account.id,
        name: "Put name",
        bank: banks.euro.toUpperCase(),
        account_type: "S",
        currency: "eur",
        posted_balance: "10.00",
        posted_balance_currency: "EUR",
        available_balance: "7.50",
        available_balance_currency: "EUR",
        account_number: "9",
        auto_funding_enabled: true,
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
      const put = await t
        .as(user)
        .callUnchecked(bankAccountRoutes.replace, { id: account.id, account_number: "1" });
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
        const route = method === "PATCH" ? bankAccountRoutes.update : bankAccountRoutes.replace;
        const response = await t
          .as(user)
          .callUnchecked(route, { id: account.id, name: "Should not stick", bank: banks.euro, ...fields() });
        expect(response.statusCode, `${method} ${response.body}`).toBe(400);
        expect(Object.keys(response.json())).toEqual([field]);
      }
      const after = await get(user, account.id);
      expect(after.json()).toEqual(account);
    });

    it("refuses a dollar bank too (a different bank is a change even when it exists)", async () => {
      const user = await t.user();
      const account = await createdAccount(user);
      const response = await t.as(user).call(bankAccountRoutes.update, {
        id: account.id,
        bank: banks.dollar,
        account_type: "S",
        posted_balance_currency: "USD",
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
        const response = await t.as(user).call(bankAccountRoutes.update, { id: account.id, ...fields });
        expect(response.statusCode, JSON.stringify(fields)).toBe(400);
        expect(Object.keys(response.json())).toEqual([key]);
      }
    });

    it("works with an API key", async () => {
      const user = await t.user();
      const account = await createdAccount(user);
      const response = await t
        .as(await t.apiKey(user))
        .call(bankAccountRoutes.update, { id: account.id, name: "Via key" });
      expect(response.statusCode).toBe(200);
      expect(response.json().name).toBe("Via key");
    });
  });

  describe("mark-imported", () => {
    it("sets last_imported_at and moves last_posted_through forward only", async () => {
      const user = await t.user();
      const account = await createdAccount(user);
      const mark = (date: unknown, caller: Caller = user) =>
        t
          .as(caller)
          .callUnchecked(
            bankAccountRoutes.markImported,
            date === undefined ? { id: account.id } : { id: account.id, last_posted_through: date },
          );

      const before = Date.now();
      const first = await mark("2024-03-10");
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json().last_posted_through).toBe("2024-03-10");
      const importedAt = Date.parse(String(first.json().last_imported_at));
      expect(importedAt).toBeGreaterThanOrEqual(before - 1000);

      const older = await mark("2024-02-01");
      expect(older.statusCode).toBe(200);
      expect(older.json().last_posted_through).toBe("2024-03-10");
      expect(Date.parse(String(older.json().last_imported_at))).toBeGreaterThanOrEqual(importedAt);

      const newer = await mark("2024-04-01", await t.apiKey(user));
      expect(newer.statusCode).toBe(200);
      expect(newer.json().last_posted_through).toBe("2024-04-01");

      for (const bad of [undefined, "2024-02-30", "04/01/2024", "", "2024-04-01T00:00:00Z"]) {
        const response = await mark(bad);
        expect(response.statusCode, String(bad)).toBe(400);
        expect(Object.keys(response.json())).toEqual(["last_posted_through"]);
      }
      const after = await get(user, account.id);
      expect(after.json().last_posted_through).toBe("2024-04-01");
    });
  });

  it("keeps the balances and Unallocated budget consistent under concurrent updates", async () => {
    const user = await t.user();
    const account = await createdAccount(user, { available_balance: "50" });
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        i % 2
          ? t.as(user).call(bankAccountRoutes.update, { id: account.id, name: `Name ${i}` })
          : t.as(user).call(bankAccountRoutes.markImported, {
              id: account.id,
              last_posted_through: `2024-01-0${i + 1}`,
            }),
      ),
    );
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    const after = (await get(user, account.id)).json();
    expect(after.last_posted_through).toBe("2024-01-05");
    expect(after.available_balance).toBe("50.00");
    expect((await budgetsOf(account.id)).map((b) => b.balance)).toEqual(["50.00"]);
  });
});
