import { allocationRoutes } from "@allot/contract/allocations/routes";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { transactionCategories } from "@allot/db/schema/transaction-categories";
import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/testing/test-app";
import { transactionKit } from "../../../test/testing/transaction-test-kit";

const UNKNOWN = "00000000-0000-4000-8000-000000000000";

describe.each(testEngines())("transactions over HTTP (%s)", (engine) => {
  const t = useTestApp(engine);
  const kit = transactionKit(t);

  describe("create", () => {
    it("creates a posted transaction allocated to Unallocated and moves both balances", async () => {
      const user = await t.user();
      const account = await kit.account(user);
      const response = await kit.create(user, {
        bank_account: account.id,
        amount: "-12.5",
        transaction_date: "2026-03-10T12:00:00Z",
        transaction_type: "signature_purchase",
        raw_description: "GROCER 123",
        memo: "weekly shop",
        merchant_city: "Portland",
        merchant_latitude: "45.5152",
      });
      expect(response.statusCode, response.body).toBe(201);
      const body = response.json();
      expect(body).toMatchObject({
        bank_account: account.id,
        amount: "-12.50",
        amount_currency: "USD",
        posted_date: "2026-03-10T12:00:00.000Z",
        transaction_date: "2026-03-10T12:00:00.000Z",
        transaction_type: "signature_purchase",
        pending: false,
        memo: "weekly shop",
        raw_description: "GROCER 123",
        description: "GROCER 123",
        description_user_edited: false,
        category: null,
        category_full_name: null,
        merchant_city: "Portland",
        merchant_latitude: "45.515200",
        has_details: false,
        party: null,
        linked_transaction: null,
        image: null,
        image_width: null,
        image_height: null,
        document: null,
        bank_account_posted_balance: "987.50",
        bank_account_posted_balance_currency: "USD",
        bank_account_available_balance: "987.50",
        bank_account_available_balance_currency: "USD",
      });
      expect(body.allocations).toHaveLength(1);
      expect(body.allocations[0]).toMatchObject({
        transaction: body.id,
        budget: account.unallocated,
        amount: "-12.50",
        amount_currency: "USD",
        budget_balance: "987.50",
        budget_balance_currency: "USD",
        category: null,
      });
      expect(await kit.balances(user, account.id)).toEqual({ posted: "987.50", available: "987.50" });
      expect(await kit.budgetBalance(account.unallocated)).toBe("987.50");
      await kit.ledgerHolds(account.id);
    });

    it("lets a pending row change the available balance only", async () => {
      const user = await t.user();
      const account = await kit.account(user);
      const body = await kit.transaction(user, account.id, { amount: "-40.00", pending: true });
      expect(body).toMatchObject({
        pending: true,
        bank_account_posted_balance: "1000.00",
        bank_account_available_balance: "960.00",
      });
      expect(await kit.balances(user, account.id)).toEqual({ posted: "1000.00", available: "960.00" });
      await kit.ledgerHolds(account.id);
    });

    it("keeps every snapshot right when an older row arrives after newer ones", async () => {
      const user = await t.user();
      const account = await kit.account(user);
      const newer = await kit.transaction(user, account.id, {
        amount: "-10.00",
        transaction_date: "2026-03-10",
      });
      const older = await kit.transaction(user, account.id, {
        amount: "-5.00",
        transaction_date: "2026-03-01",
      });
      expect(older.bank_account_posted_balance).toBe("995.00");
      const again = (await t.as(user).call(transactionRoutes.get, { id: newer.id })).json();
      expect(again.bank_account_posted_balance).toBe("985.00");
      expect(again.allocations[0]?.budget_balance).toBe("985.00");
      await kit.ledgerHolds(account.id);
    });

    it("defaults posted_date and description, copies a visible category onto the allocation", async () => {
      const user = await t.user();
      const account = await kit.account(user);
      const groceries = await kit.category("Food & Drink", "Groceries");
      const body = await kit.transaction(user, account.id, {
        transaction_date: "2026-02-01T08:30:00+02:00",
        posted_date: "2026-02-03",
        description: "Groceries at the market",
        category: groceries,
      });
      expect(body).toMatchObject({
        transaction_date: "2026-02-01T06:30:00.000Z",
        // A bare date is the start of that day in the account's time zone (Los Angeles, PST).
        posted_date: "2026-02-03T08:00:00.000Z",
        description: "Groceries at the market",
        category: groceries,
        category_full_name: "Food & Drink : Groceries",
      });
      expect(body.allocations[0]).toMatchObject({
        category: groceries,
        category_full_name: "Food & Drink : Groceries",
      });
      await kit.ledgerHolds(account.id);
    });

    it("takes form-encoded and multipart bodies, with pending=false staying false", async () => {
      const user = await t.user();
      const account = await kit.account(user);
      const fields = {
        bank_account: account.id,
        amount: "-3.25",
        transaction_date: "2026-03-10",
        transaction_type: "fee",
        raw_description: "FEE",
        pending: "false",
        category: "",
      };
      const form = await t.inject({
        method: "POST",
        url: "/api/v1/transactions/",
        headers: { authorization: user.bearer, "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams(fields).toString(),
      });
      expect(form.statusCode, form.body).toBe(201);
      expect(form.json()).toMatchObject({ pending: false, amount: "-3.25", category: null });

      const boundary = "----allot-transactions-boundary";
      const multipart = await t.inject({
        method: "POST",
        url: "/api/v1/transactions/",
        headers: { authorization: user.bearer, "content-type": `multipart/form-data; boundary=${boundary}` },
        payload: `${Object.entries({ ...fields, pending: "true" })
          .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
          .join("")}--${boundary}--\r\n`,
      });
      expect(multipart.statusCode, multipart.body).toBe(201);
      expect(multipart.json()).toMatchObject({ pending: true, amount: "-3.25" });
      expect(await kit.balances(user, account.id)).toEqual({ posted: "996.75", available: "993.50" });
      await kit.ledgerHolds(account.id);
    });

    it("refuses missing and malformed fields with 400 on each field, and changes nothing", async () => {
      const user = await t.user();
      const account = await kit.account(user);
      const missing = await kit.create(user, {});
      expect(missing.statusCode).toBe(400);
      expect(Object.keys(missing.json()).sort()).toEqual(
        ["amount", "bank_account", "raw_description", "transaction_date", "transaction_type"].sort(),
      );
      const base = {
        bank_account: account.id,
        amount: "-1.00",
        transaction_date: "2026-03-10",
        transaction_type: "ach",
        raw_description: "X",
      };
      for (const [field, value] of [
        ["amount", "1.234"],
        ["amount", "abc"],
        ["transaction_type", "teleport"],
        ["transaction_date", "yesterday"],
        ["posted_date", "2026-13-45"],
        ["pending", "maybe"],
        ["category", "not-a-uuid"],
        ["merchant_latitude", "123.5"],
        ["image", "https://example.com/r.png"],
        ["raw_description", ""],
      ] as const) {
        const response = await kit.create(user, { ...base, [field]: value });
        expect(response.statusCode, `${field}=${value}`).toBe(400);
        expect(Object.keys(response.json()), `${field}=${value}`).toEqual([field]);
      }
      expect(await kit.balances(user, account.id)).toEqual({ posted: "1000.00", available: "1000.00" });
    });

    it("refuses another currency with 400 on amount_currency; the account's own is fine", async () => {
      const user = await t.user();
      const account = await kit.account(user);
      const wrong = await kit.create(user, {
        bank_account: account.id,
        amount: "-1.00",
        amount_currency: "EUR",
        transaction_date: "2026-03-10",
        transaction_type: "ach",
        raw_description: "X",
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({ amount_currency: ["Must be the bank account's currency, 'USD'."] });
      const right = await kit.transaction(user, account.id, { amount_currency: "usd" });
      expect(right.amount_currency).toBe("USD");
    });

    it("refuses another user's or an unknown account with 400 on bank_account, changing nothing", async () => {
      const owner = await t.user();
      const intruder = await t.user();
      const account = await kit.account(owner);
      for (const id of [account.id, UNKNOWN]) {
        const response = await kit.create(intruder, {
          bank_account: id,
          amount: "-1.00",
          transaction_date: "2026-03-10",
          transaction_type: "ach",
          raw_description: "X",
        });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ bank_account: [`Invalid pk "${id}" - object does not exist.`] });
      }
      expect(await kit.balances(owner, account.id)).toEqual({ posted: "1000.00", available: "1000.00" });
    });

    it("refuses a category the caller cannot see (or none at all) with 400 on category", async () => {
      const user = await t.user();
      const stranger = await t.user();
      const account = await kit.account(user);
      const [hidden] = await t.db
        .insert(transactionCategories)
        .values({ group: "Secret", name: "Stuff", ownerId: stranger.id })
        .returning();
      for (const id of [hidden?.id, UNKNOWN]) {
        const response = await kit.create(user, {
          bank_account: account.id,
          amount: "-1.00",
          transaction_date: "2026-03-10",
          transaction_type: "ach",
          raw_description: "X",
          category: id,
        });
        expect(response.statusCode).toBe(400);
        expect(Object.keys(response.json())).toEqual(["category"]);
      }
    });
  });

  describe("auto_spend routing on create", () => {
    it("routes a posted row to the one active budget listing its category", async () => {
      const user = await t.user();
      const account = await kit.account(user);
      const groceries = await kit.category("Food & Drink", "Groceries");
      const food = await kit.budget(account.id, { autoSpend: ["Food & Drink : Groceries"] });
      await kit.budget(account.id, { autoSpend: ["Food & Drink : Groceries"], archived: true });
      const routed = await kit.transaction(user, account.id, { amount: "-25.00", category: groceries });
      expect(routed.allocations).toHaveLength(1);
      expect(routed.allocations[0]).toMatchObject({
        budget: food,
        amount: "-25.00",
        budget_balance: "-25.00",
      });
      expect(await kit.budgetBalance(food)).toBe("-25.00");
      expect(await kit.budgetBalance(account.unallocated)).toBe("1000.00");

      // Pending rows and rows of other categories stay in Unallocated.
      const pending = await kit.transaction(user, account.id, { category: groceries, pending: true });
      expect(pending.allocations[0]?.budget).toBe(account.unallocated);
      const other = await kit.transaction(user, account.id, {
        category: await kit.category("Food & Drink", "Restaurants"),
      });
      expect(other.allocations[0]?.budget).toBe(account.unallocated);
      await kit.ledgerHolds(account.id);
    });

    it("routes nothing when two active budgets list the category", async () => {
      const user = await t.user();
      const account = await kit.account(user);
      const groceries = await kit.category("Food & Drink", "Groceries");
      await kit.budget(account.id, { autoSpend: ["Food & Drink : Groceries"] });
      await kit.budget(account.id, { autoSpend: ["Food & Drink : Groceries", "Home : Rent"] });
      const body = await kit.transaction(user, account.id, { category: groceries });
      expect(body.allocations[0]?.budget).toBe(account.unallocated);
      await kit.ledgerHolds(account.id);
    });
  });

  describe("retrieve, update, delete", () => {
    it("retrieves one transaction; another user's or an unknown one is 404 on every verb", async () => {
      const owner = await t.user();
      const intruder = await t.user();
      const account = await kit.account(owner);
      const row = await kit.transaction(owner, account.id, { pending: true });
      const own = await t.as(owner).call(transactionRoutes.get, { id: row.id });
      expect(own.statusCode).toBe(200);
      expect(own.json()).toEqual(row);
      for (const id of [row.id, UNKNOWN]) {
        const as = t.as(intruder);
        for (const [verb, send] of [
          ["GET", () => as.call(transactionRoutes.get, { id })],
          ["PUT", () => as.call(transactionRoutes.replace, { id, transaction_type: "ach" })],
          ["PATCH", () => as.call(transactionRoutes.update, { id, memo: "x" })],
          ["DELETE", () => as.call(transactionRoutes.delete, { id })],
          [
            "POST resolve-pending",
            () => as.call(transactionRoutes.resolvePending, { id, posted_date: "2026-03-11" }),
          ],
          ["POST splits", () => as.call(transactionRoutes.split, { id, splits: {} })],
        ] as const) {
          const response = await send();
          expect(response.statusCode, `${verb} ${id}`).toBe(404);
        }
      }
      expect((await t.as(owner).call(transactionRoutes.get, { id: "nope" })).statusCode).toBe(404);
      expect(await kit.balances(owner, account.id)).toEqual({ posted: "1000.00", available: "990.00" });
      await kit.ledgerHolds(account.id);
    });

    it("changes transaction_type, memo and description; a new description is marked user-edited", async () => {
      const user = await t.user();
      const account = await kit.account(user);
      const row = await kit.transaction(user, account.id);
      const patch = (payload: Record<string, unknown>, method: "PATCH" | "PUT" = "PATCH") =>
        t.as(user).callUnchecked(method === "PATCH" ? transactionRoutes.update : transactionRoutes.replace, {
          id: row.id,
          ...payload,
        });

      const same = await patch({
        description: row.description,
        amount: "-10",
        raw_description: "COFFEE SHOP",
      });
      expect(same.statusCode, same.body).toBe(200);
      expect(same.json().description_user_edited).toBe(false);

      const changed = await patch({ transaction_type: "pin_purchase", memo: "latte", description: "Coffee" });
      expect(changed.statusCode).toBe(200);
      expect(changed.json()).toMatchObject({
        transaction_type: "pin_purchase",
        memo: "latte",
        description: "Coffee",
        description_user_edited: true,
        amount: "-10.00",
      });

      const put = await patch(
        {
          transaction_type: "ach",
          bank_account: account.id,
          amount: "-10.00",
          transaction_date: "2026-03-10T12:00:00Z",
          posted_date: "2026-03-10T12:00:00.000Z",
          raw_description: "COFFEE SHOP",
          memo: null,
        },
        "PUT",
      );
      expect(put.statusCode, put.body).toBe(200);
      expect(put.json()).toMatchObject({ transaction_type: "ach", memo: null, description: "Coffee" });

      const putWithoutType = await patch({ memo: "x" }, "PUT");
      expect(putWithoutType.statusCode).toBe(400);
      expect(Object.keys(putWithoutType.json())).toEqual(["transaction_type"]);
      await kit.ledgerHolds(account.id);
    });

    it("refuses a changed value of any field but type, memo and description with 400 on that field", async () => {
      const user = await t.user();
      const account = await kit.account(user);
      const other = await kit.account(user);
      const groceries = await kit.category("Food & Drink", "Groceries");
      const rent = await kit.category("Home", "Rent");
      const created = {
        merchant_address: "1 Main St",
        merchant_city: "Portland",
        merchant_region: "OR",
        merchant_country: "US",
        merchant_latitude: "45.5",
        merchant_longitude: "-122.6",
        bank_transaction_id: "bt-1",
        category: groceries,
      };
      const row = await kit.transaction(user, account.id, created);
      const patch = (payload: Record<string, unknown>) =>
        t.as(user).callUnchecked(transactionRoutes.update, { id: row.id, ...payload });
      for (const [field, value] of [
        ["amount", "-11.00"],
        ["posted_date", "2026-03-11T12:00:00Z"],
        ["transaction_date", "2026-03-09"],
        ["bank_account", other.id],
        ["raw_description", "SOMETHING ELSE"],
        ["pending", true],
        ["amount_currency", "EUR"],
        ["category", rent],
        ["category", null],
        ["merchant_address", "2 Main St"],
        ["merchant_city", "Salem"],
        ["merchant_city", null],
        ["merchant_region", "WA"],
        ["merchant_country", ""],
        ["merchant_latitude", "45.500001"],
        ["merchant_longitude", null],
        ["bank_transaction_id", "bt-2"],
      ] as const) {
        const response = await patch({ [field]: value, memo: "ignored" });
        expect(response.statusCode, `${field}: ${value}`).toBe(400);
        expect(Object.keys(response.json()), `${field}: ${value}`).toEqual([field]);
      }
      const unchanged = (await t.as(user).call(transactionRoutes.get, { id: row.id })).json();
      // numeric(9,6) columns answer with six decimals.
      const stored = { ...created, merchant_latitude: "45.500000", merchant_longitude: "-122.600000" };
      expect(unchanged).toMatchObject({ ...stored, memo: null });

      // The same values, spelled another way, are fine.
      const same = await patch({
        ...created,
        merchant_latitude: 45.5,
        merchant_longitude: "-122.600000",
        merchant_city: " Portland ",
        category: groceries.toUpperCase(),
        transaction_date: "2026-03-10T14:00:00+02:00",
        pending: "false",
        memo: "kept",
      });
      expect(same.statusCode, same.body).toBe(200);
      expect(same.json()).toMatchObject({ ...stored, memo: "kept" });
      const bare = await kit.transaction(user, account.id);
      // Blanks as a form spells them ("" for null): the contract's types take only null for a file.
      const blank = await t.as(user).callUnchecked(transactionRoutes.update, {
        id: bare.id,
        merchant_city: "",
        merchant_latitude: null,
        image: "",
        category: null,
      });
      expect(blank.statusCode, blank.body).toBe(200);
      await kit.ledgerHolds(account.id);
    });

    it("deletes a transaction: balances reversed, allocations removed, later snapshots shifted", async () => {
      const user = await t.user();
      const account = await kit.account(user);
      const budget = await kit.budget(account.id);
      const older = await kit.transaction(user, account.id, {
        amount: "-100.00",
        transaction_date: "2026-03-01",
      });
      const split = await t
        .as(user)
        .call(transactionRoutes.split, { id: older.id, splits: { [budget]: "60.00" } });
      expect(split.statusCode, split.body).toBe(200);
      const newer = await kit.transaction(user, account.id, {
        amount: "-5.00",
        transaction_date: "2026-03-05",
      });
      const pending = await kit.transaction(user, account.id, { amount: "-7.00", pending: true });
      expect(newer.bank_account_posted_balance).toBe("895.00");

      const removed = await t.as(user).call(transactionRoutes.delete, { id: older.id });
      expect(removed.statusCode).toBe(204);
      expect(removed.body).toBe("");
      expect(await kit.balances(user, account.id)).toEqual({ posted: "995.00", available: "988.00" });
      expect(await kit.budgetBalance(budget)).toBe("0.00");
      expect(await kit.budgetBalance(account.unallocated)).toBe("988.00");
      for (const allocation of split.json()) {
        const gone = await t.as(user).call(allocationRoutes.get, { id: allocation.id });
        expect(gone.statusCode).toBe(404);
      }
      const shifted = (await t.as(user).call(transactionRoutes.get, { id: newer.id })).json();
      expect(shifted.bank_account_posted_balance).toBe("995.00");
      await kit.ledgerHolds(account.id);

      const pendingGone = await t.as(user).call(transactionRoutes.delete, { id: pending.id });
      expect(pendingGone.statusCode).toBe(204);
      expect(await kit.balances(user, account.id)).toEqual({ posted: "995.00", available: "995.00" });
      expect((await t.as(user).call(transactionRoutes.get, { id: pending.id })).statusCode).toBe(404);
      await kit.ledgerHolds(account.id);
    });
  });

  describe("resolve-pending", () => {
    const resolve = (user: { bearer: string }, id: string, payload: Record<string, unknown>) =>
      t.as(user).callUnchecked(transactionRoutes.resolvePending, { id, ...payload });

    it("credits the posted balance; the same amount leaves the available balance alone", async () => {
      const user = await t.user();
      const account = await kit.account(user);
      const row = await kit.transaction(user, account.id, { amount: "-20.00", pending: true });
      const response = await resolve(user, row.id, { posted_date: "2026-03-12T00:00:00Z" });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({
        pending: false,
        amount: "-20.00",
        posted_date: "2026-03-12T00:00:00.000Z",
        bank_account_posted_balance: "980.00",
        bank_account_available_balance: "980.00",
      });
      expect(await kit.balances(user, account.id)).toEqual({ posted: "980.00", available: "980.00" });
      await kit.ledgerHolds(account.id);

      const again = await resolve(user, row.id, { posted_date: "2026-03-12" });
      expect(again.statusCode).toBe(400);
      expect(Object.keys(again.json())).toEqual(["non_field_errors"]);
      expect(await kit.balances(user, account.id)).toEqual({ posted: "980.00", available: "980.00" });
    });

    it("adjusts the available balance and the Unallocated allocation by a changed amount", async () => {
      const user = await t.user();
      const account = await kit.account(user);
      const row = await kit.transaction(user, account.id, { amount: "-20.00", pending: true });
      const later = await kit.transaction(user, account.id, {
        amount: "-1.00",
        transaction_date: "2026-04-01",
      });
      const response = await resolve(user, row.id, { posted_date: "2026-03-12", amount: "-23.45" });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      expect(body).toMatchObject({ amount: "-23.45", pending: false });
      expect(body.allocations).toHaveLength(1);
      expect(body.allocations[0]).toMatchObject({ budget: account.unallocated, amount: "-23.45" });
      expect(await kit.balances(user, account.id)).toEqual({ posted: "975.55", available: "975.55" });
      expect(await kit.budgetBalance(account.unallocated)).toBe("975.55");
      const after = (await t.as(user).call(transactionRoutes.get, { id: later.id })).json();
      expect(after.bank_account_posted_balance).toBe("975.55");
      await kit.ledgerHolds(account.id);
    });

    it("refuses another sign, a missing posted_date and another currency, changing nothing", async () => {
      const user = await t.user();
      const account = await kit.account(user);
      const row = await kit.transaction(user, account.id, { amount: "-20.00", pending: true });
      const cases: [Record<string, unknown>, string][] = [
        [{ posted_date: "2026-03-12", amount: "5.00" }, "amount"],
        [{ posted_date: "2026-03-12", amount: "0" }, "amount"],
        [{ amount: "-5.00" }, "posted_date"],
        [{ posted_date: "not a date" }, "posted_date"],
        [{ posted_date: "2026-03-12", amount_currency: "EUR" }, "amount_currency"],
      ];
      for (const [payload, field] of cases) {
        const response = await resolve(user, row.id, payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
        expect(Object.keys(response.json())).toEqual([field]);
      }
      expect(await kit.balances(user, account.id)).toEqual({ posted: "1000.00", available: "980.00" });
      const posted = await kit.transaction(user, account.id);
      expect((await resolve(user, posted.id, { posted_date: "2026-03-12" })).statusCode).toBe(400);
      await kit.ledgerHolds(account.id);
    });

    // PGlite has one connection, so only PostgreSQL can really run the two at once.
    const onPostgres = engine === "postgres" ? it : () => {};
    onPostgres("credits once when two resolves of one row arrive at once", async () => {
      const user = await t.user();
      const account = await kit.account(user);
      const row = await kit.transaction(user, account.id, { amount: "-20.00", pending: true });
      const responses = await Promise.all([
        resolve(user, row.id, { posted_date: "2026-03-12", amount: "-25.00" }),
        resolve(user, row.id, { posted_date: "2026-03-12", amount: "-25.00" }),
      ]);
      expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 400]);
      expect(await kit.balances(user, account.id)).toEqual({ posted: "975.00", available: "975.00" });
      await kit.ledgerHolds(account.id);
    });
  });

  it("answers 401 without credentials on every endpoint", async () => {
    const id = UNKNOWN;
    for (const [route, input] of [
      [transactionRoutes.list, {}],
      [transactionRoutes.create, {}],
      [transactionRoutes.get, { id }],
      [transactionRoutes.replace, { id }],
      [transactionRoutes.update, { id }],
      [transactionRoutes.delete, { id }],
      [transactionRoutes.resolvePending, { id }],
      [transactionRoutes.split, { id }],
      [allocationRoutes.list, {}],
      [allocationRoutes.get, { id }],
    ] as const) {
      const response = await t.anonymous.callUnchecked(route, input);
      expect(response.statusCode, `${route.method} ${route.path}`).toBe(401);
    }
  });
});
