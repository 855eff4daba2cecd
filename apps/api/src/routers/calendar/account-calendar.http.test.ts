import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { importRoutes } from "@allot/contract/import/routes";
import { internalTransactionRoutes } from "@allot/contract/internal-transactions/routes";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { bankAccountOwners } from "@allot/db/schema/bank-accounts";
import { testEngines } from "@allot/db/testing/test-databases";
import { beforeAll, describe, expect, it } from "vitest";
import type { TestUser } from "../../../test/testing/test-app";
import { useTestApp } from "../../../test/testing/test-app";
import type { CallInput } from "../../../test/testing/test-client";
import { transactionKit } from "../../../test/testing/transaction-test-kit";

/*
 * One meaning of a day (decision 0027): a bare date sent for an account, or used to filter its
 * lists, is that day in the account's time zone (its first owner's), whatever the engine's or
 * the server's zone; the same texts give the same days east and west of UTC.
 */
describe.each(testEngines())("the account's calendar over HTTP (%s)", (engine) => {
  const t = useTestApp(engine);
  const kit = transactionKit(t);

  const userIn = (timeZone: string) => t.user({ timeZone });

  const timezoneOf = async (user: TestUser, id: string) => {
    const response = await t.as(user).call(bankAccountRoutes.get, { id });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().timezone;
  };
  const transactionsOf = async (user: TestUser, query: CallInput<typeof transactionRoutes.list>) => {
    const response = await t.as(user).call(transactionRoutes.list, query);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().results;
  };
  const listed = async (user: TestUser, query: CallInput<typeof transactionRoutes.list>) =>
    (await transactionsOf(user, query)).map((row) => row.raw_description);

  const syncScrape = (user: TestUser, accountId: string, rows: { posted_date: string; raw: string }[]) =>
    t.as(user).call(importRoutes.syncScrape, {
      id: accountId,
      scraped_at: "2025-10-06T10:00:00Z",
      ending_balance: "1000.00",
      transactions: rows.map((row) => ({
        is_pending: false,
        posted_date: row.posted_date,
        raw_description: row.raw,
        amount: "-1.00",
      })),
    });

  describe("a user in Europe/Berlin", () => {
    let user: TestUser;
    let accountId: string;

    beforeAll(async () => {
      user = await userIn("Europe/Berlin");
      accountId = (await kit.account(user)).id;
    });

    it("shows the account's time zone on the account", async () => {
      expect(await timezoneOf(user, accountId)).toBe("Europe/Berlin");
    });

    it("stores a scraped 2025-10-02 at Berlin's midnight and finds it by that day", async () => {
      const response = await syncScrape(user, accountId, [
        { posted_date: "2025-10-02", raw: "SCRAPED OCT 2" },
      ]);
      expect(response.statusCode, response.body).toBe(200);
      const base = { bank_account: accountId, search: "SCRAPED" };
      const [row] = await transactionsOf(user, base);
      expect(row?.posted_date).toBe("2025-10-01T22:00:00.000Z");
      expect(await listed(user, { ...base, date_from: "2025-10-02", date_to: "2025-10-02" })).toEqual([
        "SCRAPED OCT 2",
      ]);
      expect(
        await listed(user, { ...base, posted_date_from: "2025-10-02", posted_date_to: "2025-10-02" }),
      ).toEqual(["SCRAPED OCT 2"]);
      expect(await listed(user, { ...base, date_to: "2025-10-01" })).toEqual([]);
      expect(await listed(user, { ...base, date_from: "2025-10-03" })).toEqual([]);
    });

    it("reads a created bare date and a time without offset in Berlin, and one with Z as given", async () => {
      const bare = await kit.transaction(user, accountId, {
        transaction_date: "2025-10-05",
        raw_description: "BARE",
      });
      expect(bare.transaction_date).toBe("2025-10-04T22:00:00.000Z");
      expect(bare.posted_date).toBe("2025-10-04T22:00:00.000Z");
      const local = await kit.transaction(user, accountId, {
        transaction_date: "2025-10-05T23:30:00",
        raw_description: "LOCAL",
      });
      expect(local.transaction_date).toBe("2025-10-05T21:30:00.000Z");
      const utc = await kit.transaction(user, accountId, {
        transaction_date: "2025-10-05T23:30:00Z",
        raw_description: "UTC",
      });
      expect(utc.transaction_date).toBe("2025-10-05T23:30:00.000Z");
      // 23:30 UTC is already the 6th in Berlin.
      const day = { bank_account: accountId, date_from: "2025-10-05", date_to: "2025-10-05" };
      expect((await listed(user, day)).sort()).toEqual(["BARE", "LOCAL"]);
      expect(
        await listed(user, { bank_account: accountId, date_from: "2025-10-06", date_to: "2025-10-06" }),
      ).toEqual(["UTC"]);
      // A PUT repeating the bare date the row was made with is no change.
      const put = await t
        .as(user)
        .call(transactionRoutes.update, { id: bare.id, transaction_date: "2025-10-05", memo: "same day" });
      expect(put.statusCode, put.body).toBe(200);
    });

    it("posts a pending row on a bare date in Berlin", async () => {
      const pending = await kit.transaction(user, accountId, {
        transaction_date: "2025-10-07",
        pending: true,
        raw_description: "PENDING",
      });
      const response = await t
        .as(user)
        .call(transactionRoutes.resolvePending, { id: pending.id, posted_date: "2025-10-08" });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().posted_date).toBe("2025-10-07T22:00:00.000Z");
    });

    it("dates and filters transfers in Berlin", async () => {
      const [from, to] = [await kit.budget(accountId), await kit.budget(accountId)];
      const response = await t.as(user).call(internalTransactionRoutes.create, {
        bank_account: accountId,
        amount: "1.00",
        src_budget: from,
        dst_budget: to,
        effective_date: "2025-10-05",
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().effective_date).toBe("2025-10-04T22:00:00.000Z");
      const day = async (date: string) => {
        const listed = await t
          .as(user)
          .call(internalTransactionRoutes.list, { bank_account: accountId, date_from: date, date_to: date });
        expect(listed.statusCode, listed.body).toBe(200);
        return listed.json();
      };
      expect((await day("2025-10-05")).count).toBe(1);
      expect((await day("2025-10-04")).count).toBe(0);
    });
  });

  describe.each([
    ["Pacific/Kiritimati", "2025-10-04T10:00:00.000Z"],
    ["Pacific/Pago_Pago", "2025-10-05T11:00:00.000Z"],
  ])("a user in %s", (timeZone, midnight) => {
    it("creates, imports and filters 2025-10-05 as that local day", async () => {
      const user = await userIn(timeZone);
      const accountId = (await kit.account(user)).id;
      const created = await kit.transaction(user, accountId, {
        transaction_date: "2025-10-05",
        raw_description: "MADE",
      });
      expect(created.transaction_date).toBe(midnight);
      expect(
        (await syncScrape(user, accountId, [{ posted_date: "2025-10-05", raw: "IMPORTED" }])).statusCode,
      ).toBe(200);
      const base = { bank_account: accountId };
      expect(
        (await listed(user, { ...base, date_from: "2025-10-05", date_to: "2025-10-05" })).sort(),
      ).toEqual(["IMPORTED", "MADE"]);
      expect(await listed(user, { ...base, date_to: "2025-10-04" })).toEqual([]);
      expect(await listed(user, { ...base, date_from: "2025-10-06" })).toEqual([]);
    });
  });

  it("reads each account in its own calendar when a list spans accounts of two time zones", async () => {
    const east = await userIn("Pacific/Kiritimati");
    const west = await userIn("Pacific/Pago_Pago");
    const eastAccount = (await kit.account(east)).id;
    const westAccount = (await kit.account(west)).id;
    // `west` co-owns `east`'s account, whose calendar stays its first owner's.
    await t.db.insert(bankAccountOwners).values({ bankAccountId: eastAccount, userId: west.id });
    expect(await timezoneOf(west, eastAccount)).toBe("Pacific/Kiritimati");
    await kit.transaction(east, eastAccount, { transaction_date: "2025-10-05", raw_description: "EAST" });
    await kit.transaction(west, westAccount, { transaction_date: "2025-10-05", raw_description: "WEST" });
    // The two local midnights are 25 hours apart: no one UTC range holds both days and only them.
    await kit.transaction(east, eastAccount, {
      transaction_date: "2025-10-06",
      raw_description: "EAST NEXT",
    });
    await kit.transaction(west, westAccount, {
      transaction_date: "2025-10-04",
      raw_description: "WEST BEFORE",
    });
    expect((await listed(west, { date_from: "2025-10-05", date_to: "2025-10-05" })).sort()).toEqual([
      "EAST",
      "WEST",
    ]);
  });
});
