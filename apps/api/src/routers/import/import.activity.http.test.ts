import { MAX_IDS_IN_EVENT } from "@allot/contract/activity/activity-event-data";
import type { ActivityEventType } from "@allot/contract/activity/activity-event-types";
import { apiKeyRoutes } from "@allot/contract/api-keys/routes";
import { importRoutes } from "@allot/contract/import/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { activityOf, eventOfType, sessionActor } from "../../../test/testing/activity";
import { type TestUser, useTestApp } from "../../../test/testing/test-app";
import { transactionKit } from "../../../test/testing/transaction-test-kit";

const UNKNOWN = "00000000-0000-4000-8000-000000000000";
const TYPES: ActivityEventType[] = ["import.synced", "transaction.enriched"];

const posted = (posted_date: string, raw_description: string, amount: string) => ({
  is_pending: false,
  posted_date,
  raw_description,
  amount,
});
const pending = (posted_date: string, raw_description: string, amount: string) => ({
  ...posted(posted_date, raw_description, amount),
  is_pending: true,
});

describe.each(testEngines())("import activity over HTTP (%s)", (engine) => {
  const t = useTestApp(engine);
  const kit = transactionKit(t);

  /** The account's import events, newest first. */
  const events = (owner: TestUser, accountId: string) => activityOf(t, owner, accountId, TYPES);
  const byUser = sessionActor;
  const requestId = (response: { headers: Record<string, unknown> }) => response.headers["x-request-id"];
  const sync = (
    caller: TestUser | string,
    accountId: string,
    rows: unknown[],
    extra: Record<string, unknown> = {},
  ) =>
    t.as(caller).callUnchecked(importRoutes.syncScrape, {
      id: accountId,
      scraped_at: "2026-11-21T10:00:00Z",
      ending_balance: "0.00",
      transactions: rows,
      ...extra,
    });

  describe("sync-scrape", () => {
    it("keeps the first 500 new ids of a large sync, the counts saying how many there were", async () => {
      const user = await t.user();
      const account = await kit.account(user, "0.00");
      const rows = Array.from({ length: MAX_IDS_IN_EVENT + 1 }, (_, i) =>
        posted("2026-11-20", `SHOP ${i}`, "-1.00"),
      );
      const response = await sync(user, account.id, rows, { ending_balance: `-${rows.length}.00` });
      expect(response.statusCode, response.body).toBe(200);
      const created = response.json().new_transaction_ids as string[];
      expect(created).toHaveLength(MAX_IDS_IN_EVENT + 1);
      const [event] = await events(user, account.id);
      expect(event?.data).toMatchObject({
        inserted_posted: MAX_IDS_IN_EVENT + 1,
        new_transaction_ids: created.slice(0, MAX_IDS_IN_EVENT),
      });
    });

    it("records one import.synced per sync, with its counts, mismatch and new rows", async () => {
      const user = await t.user();
      const account = await kit.account(user, "0.00");
      const keyResponse = await t.as(user).call(apiKeyRoutes.create, { name: "scraper" });
      expect(keyResponse.statusCode, keyResponse.body).toBe(201);
      const key = keyResponse.json();

      // Three rows, one event; an API key's sync is the key's.
      const first = await sync(
        `Api-Key ${key.key}`,
        account.id,
        [
          pending("2026-11-21", "PENDING COFFEE", "-4.50"),
          posted("2026-11-20", "GROCER", "-20.00"),
          posted("2026-11-19", "PAYCHECK", "50.00"),
        ],
        { ending_balance: "25.50" },
      );
      expect(first.statusCode, first.body).toBe(200);
      const firstBody = first.json();
      expect(firstBody.new_transaction_ids).toHaveLength(3);
      const afterFirst = await events(user, account.id);
      expect(afterFirst).toHaveLength(1);
      expect(afterFirst[0]).toEqual({
        id: expect.any(String),
        type: "import.synced",
        occurred_at: expect.any(String),
        bank_account: account.id,
        actor: {
          kind: "api_key",
          username: user.username,
          api_key: { uuid: key.uuid, name: "scraper", prefix: key.prefix },
        },
        request_id: requestId(first),
        summary:
          `${user.username} synced the bank's transactions: 3 added (2 posted, 1 pending), ` +
          "0 already stored, 0 pending removed",
        data: {
          inserted_posted: 2,
          inserted_pending: 1,
          skipped_posted: 0,
          deleted_pending: 0,
          balance_mismatch: null,
          last_posted_through: "2026-11-20",
          new_transaction_ids: firstBody.new_transaction_ids,
        },
      });

      // The pending row is replaced, the posted ones skipped; the bank disagrees by 5.00.
      const second = await sync(
        user,
        account.id,
        [
          posted("2026-11-21", "COFFEE", "-4.50"),
          posted("2026-11-20", "GROCER", "-20.00"),
          posted("2026-11-19", "PAYCHECK", "50.00"),
        ],
        { ending_balance: "20.50" },
      );
      expect(second.statusCode, second.body).toBe(200);
      const secondBody = second.json();
      expect(secondBody.balance_mismatch).toBe("5.00");
      const afterSecond = await events(user, account.id);
      expect(afterSecond).toHaveLength(2);
      expect(afterSecond[0]).toMatchObject({
        type: "import.synced",
        actor: byUser(user),
        request_id: requestId(second),
        summary:
          `${user.username} synced the bank's transactions: 1 added (1 posted, 0 pending), ` +
          "2 already stored, 1 pending removed, and the balance differs from the bank's by 5.00 USD",
        data: {
          inserted_posted: 1,
          inserted_pending: 0,
          skipped_posted: 2,
          deleted_pending: 1,
          balance_mismatch: "5.00",
          last_posted_through: "2026-11-21",
          new_transaction_ids: secondBody.new_transaction_ids,
        },
      });
      expect(secondBody.new_transaction_ids).toHaveLength(1);
    });

    it("a sync that adds nothing still records its event", async () => {
      const user = await t.user();
      const account = await kit.account(user, "0.00");
      const response = await sync(user, account.id, []);
      expect(response.statusCode, response.body).toBe(200);
      const [event] = await events(user, account.id);
      expect(event).toMatchObject({
        type: "import.synced",
        request_id: requestId(response),
        summary: `${user.username} synced the bank's transactions: 0 added (0 posted, 0 pending), 0 already stored, 0 pending removed`,
        data: {
          inserted_posted: 0,
          new_transaction_ids: [],
          balance_mismatch: null,
          last_posted_through: null,
        },
      });
    });

    it("a dry run, a refused sync (400) and another's account (404) record nothing", async () => {
      const user = await t.user();
      const account = await kit.account(user, "0.00");
      const dry = await sync(user, account.id, [posted("2026-11-20", "GROCER", "-20.00")], { dry_run: true });
      expect(dry.statusCode, dry.body).toBe(200);
      expect(dry.json().inserted_posted).toBe(1);

      const refused = await sync(user, account.id, [
        posted("2026-11-20", "A", "-1.00"),
        { ...posted("2026-11-20", "B", "-1.00"), amount_currency: "EUR" },
      ]);
      expect(refused.statusCode, refused.body).toBe(400);
      const invalid = await sync(user, account.id, [{ posted_date: "2026-11-20", amount: "-1.00" }]);
      expect(invalid.statusCode, invalid.body).toBe(400);

      const stranger = await t.user();
      const notTheirs = await sync(stranger, account.id, [posted("2026-11-20", "GROCER", "-20.00")]);
      expect(notTheirs.statusCode, notTheirs.body).toBe(404);
      const unknown = await sync(user, UNKNOWN, []);
      expect(unknown.statusCode, unknown.body).toBe(404);

      expect(await events(user, account.id)).toEqual([]);
    });
  });

  describe("transaction-details", () => {
    it("records one transaction.enriched per request, with the counts and the rows enriched", async () => {
      const user = await t.user();
      const account = await kit.account(user);
      const food = await kit.budget(account.id, { balance: "0", autoSpend: ["Food & Drink : Groceries"] });
      const first = await kit.transaction(user, account.id, { amount: "-30.00" });
      const second = await kit.transaction(user, account.id);
      const pendingRow = await kit.transaction(user, account.id, { pending: true });

      const response = await t.as(user).call(importRoutes.transactionDetails, {
        id: account.id,
        details: [
          {
            transaction: first.id,
            details: { merchant_name: "Whole Foods" },
            category: "Food & Drink : Groceries",
          },
          { transaction: second.id, details: { merchant_name: "Cafe" } },
          { transaction: pendingRow.id, details: { merchant_name: "Cafe" } },
          { transaction: UNKNOWN, details: {} },
        ],
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(await kit.budgetBalance(food)).toBe("-30.00");

      const list = await events(user, account.id);
      expect(list).toHaveLength(1);
      expect(list[0]).toEqual({
        id: expect.any(String),
        type: "transaction.enriched",
        occurred_at: expect.any(String),
        bank_account: account.id,
        actor: byUser(user),
        request_id: requestId(response),
        summary: `${user.username} added details to 2 transactions`,
        data: {
          applied: 2,
          skipped_has_details: 0,
          skipped_pending: 1,
          not_found: 1,
          overwrite: false,
          transactions: [first.id, second.id],
          budgets: expect.arrayContaining([food, account.unallocated]),
        },
      });
      expect(eventOfType(list[0], "transaction.enriched").data.budgets).toHaveLength(2);

      // Nothing applied (every row has details now): the request is still recorded.
      const again = await t.as(user).call(importRoutes.transactionDetails, {
        id: account.id,
        details: [{ transaction: second.id, details: { merchant_name: "Other" } }],
      });
      expect(again.statusCode, again.body).toBe(200);
      const [latest] = await events(user, account.id);
      expect(latest).toMatchObject({
        type: "transaction.enriched",
        request_id: requestId(again),
        summary: `${user.username} added details to 0 transactions`,
        data: { applied: 0, skipped_has_details: 1, transactions: [], budgets: [] },
      });

      const overwrite = await t.as(user).call(importRoutes.transactionDetails, {
        id: account.id,
        overwrite: true,
        details: [{ transaction: second.id, details: { merchant_name: "Other" } }],
      });
      expect(overwrite.statusCode, overwrite.body).toBe(200);
      expect((await events(user, account.id))[0]).toMatchObject({
        request_id: requestId(overwrite),
        summary: `${user.username} added details to 1 transaction`,
        data: { applied: 1, overwrite: true, transactions: [second.id], budgets: [] },
      });
    });

    it("a refused request (400) and another's account (404) record nothing", async () => {
      const user = await t.user();
      const account = await kit.account(user);
      const row = await kit.transaction(user, account.id);
      const refused = await t.as(user).callUnchecked(importRoutes.transactionDetails, {
        id: account.id,
        details: [{ transaction: "not-a-uuid" }],
      });
      expect(refused.statusCode, refused.body).toBe(400);
      const stranger = await t.user();
      const notTheirs = await t.as(stranger).call(importRoutes.transactionDetails, {
        id: account.id,
        details: [{ transaction: row.id, details: { merchant_name: "X" } }],
      });
      expect(notTheirs.statusCode, notTheirs.body).toBe(404);
      expect(await events(user, account.id)).toEqual([]);
    });
  });
});
