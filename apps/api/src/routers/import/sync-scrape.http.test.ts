import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { importRoutes } from "@allot/contract/import/routes";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { notifications } from "@allot/db/schema/notifications";
import { transactions } from "@allot/db/schema/transactions";
import { testEngines } from "@allot/db/testing/test-databases";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { TestUser } from "../../../test/testing/test-app";
import { useTestApp } from "../../../test/testing/test-app";
import { transactionKit } from "../../../test/testing/transaction-test-kit";

interface Row {
  is_pending?: boolean;
  posted_date: string;
  raw_description: string;
  amount: string;
  running_balance?: string | null;
  transaction_type?: string;
  amount_currency?: string;
}

const posted = (posted_date: string, raw_description: string, amount: string, extra: Partial<Row> = {}) => ({
  is_pending: false,
  posted_date,
  raw_description,
  amount,
  ...extra,
});
const pending = (posted_date: string, raw_description: string, amount: string) => ({
  ...posted(posted_date, raw_description, amount),
  is_pending: true,
});

describe.each(testEngines())("sync-scrape over HTTP (%s)", (engine) => {
  const t = useTestApp(engine);
  const kit = transactionKit(t);

  /** As the user, or with an `Authorization` header value (an API key). */
  const sync = (
    user: TestUser | string,
    accountId: string,
    rows: Row[],
    extra: Record<string, unknown> = {},
  ) =>
    t.as(user).callUnchecked(importRoutes.syncScrape, {
      id: accountId,
      scraped_at: "2026-11-21T10:00:00Z",
      ending_balance: "0.00",
      transactions: rows,
      ...extra,
    });

  async function synced(user: TestUser, accountId: string, rows: Row[], extra: Record<string, unknown> = {}) {
    const response = await sync(user, accountId, rows, extra);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  /** The account's transactions in list order (newest first). */
  async function listed(user: TestUser, accountId: string) {
    const response = await t
      .as(user)
      .call(transactionRoutes.list, { bank_account: accountId, page_size: 500 });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().results as Array<
      Record<string, unknown> & { allocations: Record<string, unknown>[] }
    >;
  }

  async function account(user: TestUser, balance = "0.00") {
    return kit.account(user, balance);
  }

  const notificationKinds = async (accountId: string) =>
    (
      await t.db
        .select({ kind: notifications.kind })
        .from(notifications)
        .where(eq(notifications.bankAccountId, accountId))
    )
      .map((row) => row.kind)
      .sort();

  it("inserts posted and pending rows so the list reproduces the scrape's order", async () => {
    const user = await t.user();
    const acct = await account(user, "100.00");
    const rows = [
      pending("2026-11-21", "PENDING COFFEE", "-4.50"),
      posted("2026-11-20", "GROCER", "-20.00", { running_balance: "70.00" }),
      posted("2026-11-20", "PAYCHECK", "1000.00", { running_balance: "90.00" }),
      posted("2026-11-19", "RENT", "-10.00", { running_balance: "-910.00" }),
    ];
    const body = await synced(user, acct.id, rows, { ending_balance: "1065.50" });
    expect(body).toMatchObject({
      deleted_pending: 0,
      inserted_posted: 3,
      skipped_posted: 0,
      inserted_pending: 1,
      balance_mismatch: null,
      last_posted_through: "2026-11-20",
    });
    expect(body.new_transaction_ids).toHaveLength(4);
    expect(body.details_needed.map((d: { index: number }) => d.index)).toEqual([1, 2, 3]);
    // 70 = 90 + (-20) holds; 90 should be -910 + 1000 = 90 holds too; nothing breaks.
    expect(body.posting_order_mismatches).toEqual([]);

    const list = await listed(user, acct.id);
    expect(list.map((row) => row.raw_description)).toEqual(["PENDING COFFEE", "GROCER", "PAYCHECK", "RENT"]);
    expect(list.map((row) => row.id)).toEqual(body.new_transaction_ids);
    expect(list.map((row) => row.bank_account_available_balance)).toEqual([
      "1065.50",
      "1070.00",
      "1090.00",
      "90.00",
    ]);
    expect(list.map((row) => row.bank_account_posted_balance)).toEqual([
      "1070.00",
      "1070.00",
      "1090.00",
      "90.00",
    ]);
    for (const row of list) {
      expect(row.allocations).toHaveLength(1);
      expect(row.allocations[0]).toMatchObject({ budget: acct.unallocated, amount: row.amount });
    }
    expect(await kit.balances(user, acct.id)).toEqual({ posted: "1070.00", available: "1065.50" });
    await kit.ledgerHolds(acct.id);
  });

  it("re-sending the same payload changes nothing but the pending rows", async () => {
    const user = await t.user();
    const acct = await account(user);
    const rows = [
      pending("2026-11-21", "PENDING COFFEE", "-4.50"),
      posted("2026-11-20", "GROCER", "-20.00"),
      posted("2026-11-20", "GROCER", "-20.00"),
      posted("2026-11-19", "RENT", "-10.00"),
    ];
    const first = await synced(user, acct.id, rows);
    const before = await listed(user, acct.id);
    const again = await synced(user, acct.id, rows);
    expect(again).toMatchObject({
      deleted_pending: 1,
      inserted_posted: 0,
      skipped_posted: 3,
      inserted_pending: 1,
    });
    expect(again.new_transaction_ids).toHaveLength(1);
    const after = await listed(user, acct.id);
    expect(after.slice(1).map((row) => row.id)).toEqual(before.slice(1).map((row) => row.id));
    expect(after[0]?.id).not.toEqual(first.new_transaction_ids[0]);
    // Matched rows still need their details; they point at the stored transactions.
    expect(again.details_needed).toEqual(
      first.details_needed.map((d: { index: number; transaction: string }) => d),
    );
    expect(await kit.balances(user, acct.id)).toEqual({ posted: "-50.00", available: "-54.50" });
    await kit.ledgerHolds(acct.id);
  });

  it("replaces pending rows, reversing what they did, even once a pending row vanished", async () => {
    const user = await t.user();
    const acct = await account(user, "100.00");
    await synced(user, acct.id, [pending("2026-11-21", "HOLD HOTEL", "-200.00")]);
    expect(await kit.balances(user, acct.id)).toEqual({ posted: "100.00", available: "-100.00" });
    const body = await synced(user, acct.id, [posted("2026-11-22", "HOTEL", "-180.00")]);
    expect(body).toMatchObject({ deleted_pending: 1, inserted_pending: 0, inserted_posted: 1 });
    expect(await kit.balances(user, acct.id)).toEqual({ posted: "-80.00", available: "-80.00" });
    expect((await listed(user, acct.id)).map((row) => row.raw_description)).toEqual(["HOTEL"]);
    await kit.ledgerHolds(acct.id);
  });

  it("dates a row by the MM/DD in its description when it is within 7 days before posting", async () => {
    const user = await t.user();
    const acct = await account(user);
    await synced(user, acct.id, [
      posted("2026-11-20", "POS 11/18 GROCER", "-1.00"),
      posted("2026-11-20", "POS 11/02 OLD", "-2.00"),
      posted("2026-01-03", "POS 12/30 NEW YEAR", "-3.00"),
      posted("2026-11-20T15:30:00-08:00", "CARD 11/19 LUNCH", "-4.00"),
    ]);
    const byDescription = Object.fromEntries(
      (await listed(user, acct.id)).map((row) => [row.raw_description, row.transaction_date]),
    );
    // The user's time zone is America/Los_Angeles: a bare date is that local day's midnight.
    expect(byDescription).toEqual({
      "POS 11/18 GROCER": "2026-11-18T08:00:00.000Z",
      "POS 11/02 OLD": "2026-11-20T08:00:00.000Z",
      "POS 12/30 NEW YEAR": "2025-12-30T08:00:00.000Z",
      "CARD 11/19 LUNCH": "2026-11-19T23:30:00.000Z",
    });
  });

  it("skips rows stored a day apart, and matches a truncated description with its full form", async () => {
    const user = await t.user();
    const acct = await account(user);
    await synced(user, acct.id, [
      posted("2026-11-10", "AMAZON MKTPLACE PMTS...", "-30.00"),
      posted("2026-11-09", "COFFEE", "-3.00"),
    ]);
    const body = await synced(user, acct.id, [
      posted("2026-11-11", "AMAZON MKTPLACE PMTS WA", "-30.00"),
      posted("2026-11-10", "COFFEE", "-3.00"),
      posted("2026-11-07", "COFFEE", "-3.00"),
    ]);
    expect(body).toMatchObject({ inserted_posted: 1, skipped_posted: 2 });
    // Within one payload too: the full and the truncated form are one purchase.
    const within = await synced(user, acct.id, [
      posted("2026-11-15", "HARDWARE STORE #12", "-8.00"),
      posted("2026-11-15", "HARDWARE STO...", "-8.00"),
    ]);
    expect(within).toMatchObject({ inserted_posted: 1, skipped_posted: 1 });
    expect(within.details_needed).toEqual([
      { index: 0, transaction: within.new_transaction_ids[0] },
      { index: 1, transaction: within.new_transaction_ids[0] },
    ]);
    expect(await kit.balances(user, acct.id)).toEqual({ posted: "-44.00", available: "-44.00" });
  });

  it("recomputes later rows' running balances when an older row arrives", async () => {
    const user = await t.user();
    const acct = await account(user);
    await synced(user, acct.id, [posted("2026-11-20", "NEWER", "-10.00")]);
    await synced(user, acct.id, [posted("2026-11-10", "OLDER", "-5.00")]);
    const list = await listed(user, acct.id);
    expect(list.map((row) => [row.raw_description, row.bank_account_posted_balance])).toEqual([
      ["NEWER", "-15.00"],
      ["OLDER", "-5.00"],
    ]);
    expect(list.map((row) => row.allocations[0]?.budget_balance)).toEqual(["-15.00", "-5.00"]);
    await kit.ledgerHolds(acct.id);
  });

  it("keeps running balances right when a replaced pending row sat before stored rows", async () => {
    const user = await t.user();
    const acct = await account(user, "50.00");
    await synced(user, acct.id, [pending("2026-11-18", "HOLD", "-5.00"), posted("2026-11-10", "A", "-1.00")]);
    await kit.transaction(user, acct.id, { transaction_date: "2026-11-20T12:00:00Z", amount: "-2.00" });
    const body = await synced(user, acct.id, [
      // Posted later but bought earlier than the row before it: dated 11/12 by its description.
      posted("2026-11-16", "POS 11/12 BOOKS", "-3.00"),
      posted("2026-11-14", "LUNCH", "-4.00"),
      posted("2026-11-10", "A", "-1.00"),
    ]);
    expect(body).toMatchObject({ deleted_pending: 1, inserted_posted: 2, skipped_posted: 1 });
    const list = await listed(user, acct.id);
    expect(list.map((row) => [row.raw_description, row.bank_account_available_balance])).toEqual([
      ["COFFEE SHOP", "40.00"],
      ["LUNCH", "42.00"],
      ["POS 11/12 BOOKS", "46.00"],
      ["A", "49.00"],
    ]);
    await kit.ledgerHolds(acct.id);
  });

  it("counts new rows' running balances in list order when the bank's order differs", async () => {
    const user = await t.user();
    const acct = await account(user, "50.00");
    await synced(user, acct.id, [
      posted("2026-11-16", "POS 11/12 BOOKS", "-3.00"),
      posted("2026-11-14", "LUNCH", "-4.00"),
    ]);
    const list = await listed(user, acct.id);
    expect(list.map((row) => [row.raw_description, row.bank_account_posted_balance])).toEqual([
      ["LUNCH", "43.00"],
      ["POS 11/12 BOOKS", "47.00"],
    ]);
    await kit.ledgerHolds(acct.id);
  });

  it("rejects the whole payload for one invalid row, naming it, and changes nothing", async () => {
    const user = await t.user();
    const acct = await account(user, "10.00");
    await synced(user, acct.id, [pending("2026-11-21", "HOLD", "-1.00")], { ending_balance: "9.00" });
    const rows: Row[] = [
      posted("2026-11-20", "A", "-1.00"),
      posted("2026-11-20", "B", "-1.00"),
      posted("2026-11-20", "C", "-1.00"),
      posted("2026-11-20", "D", "-1.005"),
    ];
    const response = await sync(user, acct.id, rows);
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json())).toEqual(["transactions.3.amount"]);

    const currency = await sync(user, acct.id, [
      posted("2026-11-20", "A", "-1.00"),
      posted("2026-11-20", "B", "-1.00", { amount_currency: "EUR" }),
    ]);
    expect(currency.statusCode).toBe(400);
    expect(currency.json()).toEqual({
      "transactions.1.amount_currency": ["Must be the bank account's currency, 'USD'."],
    });

    const badDate = await sync(user, acct.id, [{ ...posted("2026-02-30", "A", "-1.00") }]);
    expect(badDate.statusCode).toBe(400);
    expect(Object.keys(badDate.json())).toEqual(["transactions.0.posted_date"]);

    expect((await listed(user, acct.id)).map((row) => row.raw_description)).toEqual(["HOLD"]);
    expect(await kit.balances(user, acct.id)).toEqual({ posted: "10.00", available: "9.00" });
    expect(await notificationKinds(acct.id)).toEqual([
      "import_complete",
      "import_error",
      "import_error",
      "import_error",
    ]);
  });

  it("reports balance_mismatch and breaks in the bank's running-balance chain", async () => {
    const user = await t.user();
    const acct = await account(user, "100.00");
    const body = await synced(
      user,
      acct.id,
      [
        posted("2026-11-20", "C", "-5.00", { running_balance: "80.00" }),
        posted("2026-11-19", "B", "-10.00", { running_balance: "90.00" }),
        posted("2026-11-18", "A", "-10.00", { running_balance: "100.00" }),
      ],
      { ending_balance: "80.00" },
    );
    expect(body.balance_mismatch).toBe("-5.00");
    expect(body.posting_order_mismatches).toEqual([
      "transactions.0: running balance 80.00 should be 90.00 (running balance of transactions.1) + -5.00 = 85.00",
    ]);
    expect(await notificationKinds(acct.id)).toEqual([
      "balance_mismatch",
      "import_complete",
      "transaction_posted",
    ]);
    const [postedNote] = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.bankAccountId, acct.id), eq(notifications.kind, "transaction_posted")));
    expect(postedNote?.userId).toBe(user.id);
    expect(postedNote?.payload).toMatchObject({ count: 3 });
  });

  it("advances last_posted_through and last_imported_at, never backwards", async () => {
    const user = await t.user();
    const acct = await account(user);
    await synced(user, acct.id, [posted("2026-11-20", "NEW", "-1.00")]);
    const older = await synced(user, acct.id, [posted("2026-10-01", "OLD", "-1.00")]);
    expect(older.last_posted_through).toBe("2026-11-20");
    const onlyPending = await synced(user, acct.id, [pending("2026-11-25", "HOLD", "-1.00")]);
    expect(onlyPending.last_posted_through).toBe("2026-11-20");
    const detail = (await t.as(user).call(bankAccountRoutes.get, { id: acct.id })).json();
    expect(detail.last_posted_through).toBe("2026-11-20");
    expect(Date.parse(String(detail.last_imported_at))).toBeGreaterThan(Date.now() - 60_000);
  });

  it("lists in details_needed only the rows whose transaction has no details", async () => {
    const user = await t.user();
    const acct = await account(user);
    const first = await synced(user, acct.id, [
      posted("2026-11-20", "A", "-1.00"),
      posted("2026-11-19", "B", "-2.00"),
    ]);
    await t.db
      .update(transactions)
      .set({ details: { merchant_name: "A Co" } })
      .where(eq(transactions.id, first.new_transaction_ids[0] as string));
    const again = await synced(user, acct.id, [
      posted("2026-11-21", "C", "-3.00"),
      pending("2026-11-21", "D", "-4.00"),
      posted("2026-11-20", "A", "-1.00"),
      posted("2026-11-19", "B", "-2.00"),
    ]);
    expect(again.details_needed).toEqual([
      { index: 0, transaction: again.new_transaction_ids[0] },
      { index: 3, transaction: first.new_transaction_ids[1] },
    ]);
  });

  it("answers a dry run with what it would do and changes nothing", async () => {
    const user = await t.user();
    const acct = await account(user);
    await synced(user, acct.id, [pending("2026-11-21", "HOLD", "-1.00"), posted("2026-11-20", "A", "-1.00")]);
    const kinds = await notificationKinds(acct.id);
    const dry = await synced(
      user,
      acct.id,
      [posted("2026-11-21", "B", "-2.00"), posted("2026-11-20", "A", "-1.00")],
      { dry_run: true },
    );
    expect(dry).toMatchObject({
      deleted_pending: 1,
      inserted_posted: 1,
      skipped_posted: 1,
      balance_mismatch: "-3.00",
    });
    expect((await listed(user, acct.id)).map((row) => row.raw_description)).toEqual(["HOLD", "A"]);
    expect(await notificationKinds(acct.id)).toEqual(kinds);
  });

  it("serialises two syncs of one scrape: the rows are inserted once", async () => {
    const user = await t.user();
    const acct = await account(user);
    const rows = [
      pending("2026-11-21", "HOLD", "-1.00"),
      posted("2026-11-20", "A", "-2.00"),
      posted("2026-11-19", "B", "-3.00"),
    ];
    const [one, two] = await Promise.all([sync(user, acct.id, rows), sync(user, acct.id, rows)]);
    expect([one.statusCode, two.statusCode]).toEqual([200, 200]);
    const inserted = [one.json(), two.json()].map((body) => body.inserted_posted).sort();
    expect(inserted).toEqual([0, 2]);
    expect((await listed(user, acct.id)).map((row) => row.raw_description)).toEqual(["HOLD", "A", "B"]);
    expect(await kit.balances(user, acct.id)).toEqual({ posted: "-5.00", available: "-6.00" });
    await kit.ledgerHolds(acct.id);
  });

  it("accepts an empty scrape (the pending rows go) and refuses an oversized one", async () => {
    const user = await t.user();
    const acct = await account(user);
    await synced(user, acct.id, [pending("2026-11-21", "HOLD", "-1.00")]);
    expect(await synced(user, acct.id, [])).toMatchObject({ deleted_pending: 1, last_posted_through: null });
    const many = Array.from({ length: 20_001 }, () => posted("2026-11-20", "A", "-1.00"));
    const response = await sync(user, acct.id, many);
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json())).toEqual(["transactions"]);
  });

  it("works with an API key, and answers 404 for another user's account", async () => {
    const user = await t.user();
    const other = await t.user();
    const acct = await account(user);
    const key = await t.apiKey(user);
    const response = await sync(key, acct.id, [posted("2026-11-20", "A", "-1.00")], {
      ending_balance: "-1.00",
    });
    expect(response.statusCode, response.body).toBe(200);
    const foreign = await sync(other, acct.id, [posted("2026-11-20", "A", "-1.00")]);
    expect(foreign.statusCode).toBe(404);
    expect((await listed(user, acct.id)).length).toBe(1);
    expect(await notificationKinds(acct.id)).toEqual(["import_complete", "transaction_posted"]);
  });
});
