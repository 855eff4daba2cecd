import type { ActivityEventType } from "@allot/contract/activity/activity-event-types";
import { apiKeyRoutes } from "@allot/contract/api-keys/routes";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { activityOf, eventOfType, sessionActor } from "../../../test/testing/activity";
import { type TestUser, useTestApp } from "../../../test/testing/test-app";
import { transactionKit } from "../../../test/testing/transaction-test-kit";

const UNKNOWN = "00000000-0000-4000-8000-000000000000";
const TYPES: ActivityEventType[] = [
  "transaction.created",
  "transaction.updated",
  "transaction.deleted",
  "transaction.posted",
  "transaction.split",
];

describe.each(testEngines())("transaction activity over HTTP (%s)", (engine) => {
  const t = useTestApp(engine);
  const kit = transactionKit(t);

  /** The account's transaction events, newest first. */
  const events = (owner: TestUser, accountId: string) => activityOf(t, owner, accountId, TYPES);
  /** The one event the last request recorded: newest, and one more than `before`. */
  const lastEvent = async (owner: TestUser, accountId: string, before: number) => {
    const list = await events(owner, accountId);
    expect(list).toHaveLength(before + 1);
    return list[0];
  };
  const byUser = sessionActor;
  const requestId = (response: { headers: Record<string, unknown> }) => response.headers["x-request-id"];

  const setUp = async () => {
    const user = await t.user();
    const account = await kit.account(user);
    return { user, account };
  };

  it("create: one transaction.created with the row's fields", async () => {
    const { user, account } = await setUp();
    const response = await t.as(user).call(transactionRoutes.create, {
      bank_account: account.id,
      amount: "-12.5",
      transaction_date: "2026-03-10T12:00:00Z",
      transaction_type: "signature_purchase",
      raw_description: "GROCER 123",
      description: "Grocer",
    });
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json();

    const event = await lastEvent(user, account.id, 0);
    expect(event).toMatchObject({
      type: "transaction.created",
      bank_account: account.id,
      actor: byUser(user),
      request_id: requestId(response),
      summary: `${user.username} created the transaction Grocer of -12.50 USD`,
      data: {
        transaction: created.id,
        amount: "-12.50",
        transaction_date: "2026-03-10T12:00:00.000Z",
        posted_date: "2026-03-10T12:00:00.000Z",
        transaction_type: "signature_purchase",
        pending: false,
        description: "Grocer",
        category: null,
        budget: account.unallocated,
        auto_spend: false,
      },
    });
    expect(typeof event?.request_id).toBe("string");
  });

  it("create routed by auto_spend: still one transaction.created, naming the budget", async () => {
    const { user, account } = await setUp();
    const groceries = await kit.category("Food & Drink", "Groceries");
    const food = await kit.budget(account.id, { name: "Food", autoSpend: ["Food & Drink : Groceries"] });
    const response = await t.as(user).call(transactionRoutes.create, {
      bank_account: account.id,
      amount: "-25",
      transaction_date: "2026-03-10T12:00:00Z",
      transaction_type: "signature_purchase",
      raw_description: "WHOLE FOODS",
      category: groceries,
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().allocations.map((a) => a.budget)).toEqual([food]);

    const list = await events(user, account.id);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      type: "transaction.created",
      request_id: requestId(response),
      summary: `${user.username} created the transaction WHOLE FOODS of -25.00 USD, allocated to Food (auto_spend)`,
      data: {
        transaction: response.json().id,
        amount: "-25.00",
        category: groceries,
        budget: food,
        auto_spend: true,
      },
    });
  });

  it("create with an API key: the actor is the key, a pending row says so", async () => {
    const { user, account } = await setUp();
    const keyResponse = await t.as(user).call(apiKeyRoutes.create, { name: "bank sync" });
    expect(keyResponse.statusCode, keyResponse.body).toBe(201);
    const key = keyResponse.json();
    const response = await t.as(`Api-Key ${key.key}`).call(transactionRoutes.create, {
      bank_account: account.id,
      amount: "-4.5",
      transaction_date: "2026-03-11T08:00:00Z",
      transaction_type: "signature_purchase",
      raw_description: "PENDING COFFEE",
      pending: true,
    });
    expect(response.statusCode, response.body).toBe(201);

    const event = await lastEvent(user, account.id, 0);
    expect(event).toMatchObject({
      type: "transaction.created",
      actor: {
        kind: "api_key",
        username: user.username,
        api_key: { uuid: key.uuid, name: "bank sync", prefix: key.prefix },
      },
      request_id: requestId(response),
      summary: `${user.username} created the pending transaction PENDING COFFEE of -4.50 USD`,
      data: { transaction: response.json().id, amount: "-4.50", pending: true, auto_spend: false },
    });
  });

  it("a refused create (400) records nothing", async () => {
    const { user, account } = await setUp();
    const response = await t.as(user).call(transactionRoutes.create, {
      bank_account: account.id,
      amount: "-1",
      amount_currency: "EUR",
      transaction_date: "2026-03-10T12:00:00Z",
      transaction_type: "signature_purchase",
      raw_description: "X",
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(await events(user, account.id)).toEqual([]);
  });

  it("PATCH and PUT: transaction.updated with the changeable fields sent", async () => {
    const { user, account } = await setUp();
    const row = await kit.transaction(user, account.id);

    const patched = await t.as(user).call(transactionRoutes.update, { id: row.id, memo: "for the office" });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(await lastEvent(user, account.id, 1)).toMatchObject({
      type: "transaction.updated",
      actor: byUser(user),
      request_id: requestId(patched),
      summary: `${user.username} updated the transaction COFFEE SHOP`,
      data: { transaction: row.id, changes: ["memo"] },
    });

    // A repeated unchangeable field is not a change; the new description names the row.
    const put = await t.as(user).call(transactionRoutes.replace, {
      id: row.id,
      transaction_type: "signature_purchase",
      description: "Coffee",
      amount: "-10.00",
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(await lastEvent(user, account.id, 2)).toMatchObject({
      type: "transaction.updated",
      request_id: requestId(put),
      summary: `${user.username} updated the transaction Coffee`,
      data: { transaction: row.id, changes: ["transaction_type", "description"] },
    });

    // Values already stored: still asked for, still recorded.
    const same = await t.as(user).call(transactionRoutes.update, { id: row.id, memo: "for the office" });
    expect(same.statusCode, same.body).toBe(200);
    expect(await lastEvent(user, account.id, 3)).toMatchObject({
      type: "transaction.updated",
      request_id: requestId(same),
      data: { transaction: row.id, changes: ["memo"] },
    });
  });

  it("a refused PATCH (400) or an unknown id (404) records nothing", async () => {
    const { user, account } = await setUp();
    const row = await kit.transaction(user, account.id);
    const refused = await t
      .as(user)
      .call(transactionRoutes.update, { id: row.id, memo: "m", amount: "-11.00" });
    expect(refused.statusCode, refused.body).toBe(400);
    const missing = await t.as(user).call(transactionRoutes.update, { id: UNKNOWN, memo: "m" });
    expect(missing.statusCode, missing.body).toBe(404);
    const stranger = await t.user();
    const notTheirs = await t.as(stranger).call(transactionRoutes.delete, { id: row.id });
    expect(notTheirs.statusCode, notTheirs.body).toBe(404);
    expect((await events(user, account.id)).map((e) => e.type)).toEqual(["transaction.created"]);
  });

  it("delete: transaction.deleted with what each budget held", async () => {
    const { user, account } = await setUp();
    const row = await kit.transaction(user, account.id, { amount: "-30.00", raw_description: "HARDWARE" });
    const tools = await kit.budget(account.id, { name: "Tools" });
    const split = await t
      .as(user)
      .call(transactionRoutes.split, { id: row.id, splits: { [tools]: "20.00" } });
    expect(split.statusCode, split.body).toBe(200);

    const response = await t.as(user).call(transactionRoutes.delete, { id: row.id });
    expect(response.statusCode, response.body).toBe(204);
    const event = await lastEvent(user, account.id, 2);
    expect(event).toMatchObject({
      type: "transaction.deleted",
      actor: byUser(user),
      request_id: requestId(response),
      summary: `${user.username} deleted the transaction HARDWARE of -30.00 USD`,
      data: {
        transaction: row.id,
        amount: "-30.00",
        transaction_date: "2026-03-10T12:00:00.000Z",
        pending: false,
        description: "HARDWARE",
      },
    });
    const { allocations } = eventOfType(event, "transaction.deleted").data;
    expect([...allocations].sort((a, b) => a.amount.localeCompare(b.amount))).toEqual(
      [
        { budget: tools, amount: "-20.00" },
        { budget: account.unallocated, amount: "-10.00" },
      ].sort((a, b) => a.amount.localeCompare(b.amount)),
    );
  });

  it("resolve-pending: transaction.posted, with the pending amount when it changed", async () => {
    const { user, account } = await setUp();
    const tip = await kit.transaction(user, account.id, {
      amount: "-20.00",
      raw_description: "RESTAURANT",
      pending: true,
    });
    const response = await t.as(user).call(transactionRoutes.resolvePending, {
      id: tip.id,
      posted_date: "2026-03-12T09:00:00Z",
      amount: "-24.00",
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await lastEvent(user, account.id, 1)).toEqual({
      id: expect.any(String),
      type: "transaction.posted",
      occurred_at: expect.any(String),
      bank_account: account.id,
      actor: byUser(user),
      request_id: requestId(response),
      summary: `${user.username} posted the transaction RESTAURANT of -24.00 USD (pending at -20.00 USD)`,
      data: {
        transaction: tip.id,
        amount: "-24.00",
        pending_amount: "-20.00",
        posted_date: "2026-03-12T09:00:00.000Z",
      },
    });

    const same = await kit.transaction(user, account.id, {
      amount: "-5.00",
      raw_description: "BUS",
      pending: true,
    });
    const unchanged = await t
      .as(user)
      .call(transactionRoutes.resolvePending, { id: same.id, posted_date: "2026-03-12" });
    expect(unchanged.statusCode, unchanged.body).toBe(200);
    expect(await lastEvent(user, account.id, 3)).toMatchObject({
      type: "transaction.posted",
      request_id: requestId(unchanged),
      summary: `${user.username} posted the transaction BUS of -5.00 USD`,
      data: { transaction: same.id, amount: "-5.00", pending_amount: "-5.00" },
    });

    // Already posted: refused, nothing recorded.
    const again = await t
      .as(user)
      .call(transactionRoutes.resolvePending, { id: same.id, posted_date: "2026-03-12" });
    expect(again.statusCode, again.body).toBe(400);
    expect(await events(user, account.id)).toHaveLength(4);
  });

  it("split: transaction.split with the allocations as they now stand; a refused split records nothing", async () => {
    const { user, account } = await setUp();
    const row = await kit.transaction(user, account.id, { amount: "-100.00", raw_description: "SUPERSTORE" });
    const food = await kit.budget(account.id, { name: "Food" });
    const home = await kit.budget(account.id, { name: "Home" });
    const archived = await kit.budget(account.id, { name: "Old", archived: true });

    const refused = await t
      .as(user)
      .call(transactionRoutes.split, { id: row.id, splits: { [archived]: "10.00" } });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(await events(user, account.id)).toHaveLength(1);

    const response = await t.as(user).call(transactionRoutes.split, {
      id: row.id,
      splits: { [food]: "60.00", [home]: "30.00" },
    });
    expect(response.statusCode, response.body).toBe(200);
    const event = await lastEvent(user, account.id, 1);
    expect(event).toMatchObject({
      type: "transaction.split",
      actor: byUser(user),
      request_id: requestId(response),
      summary: `${user.username} split the transaction SUPERSTORE of -100.00 USD among 3 budgets`,
      data: { transaction: row.id, amount: "-100.00" },
    });
    const { allocations } = eventOfType(event, "transaction.split").data;
    expect(allocations).toEqual(
      response.json().map((allocation) => ({ budget: allocation.budget, amount: allocation.amount })),
    );
    expect(allocations).toEqual(
      expect.arrayContaining([
        { budget: food, amount: "-60.00" },
        { budget: home, amount: "-30.00" },
        { budget: account.unallocated, amount: "-10.00" },
      ]),
    );

    // Back to one budget.
    const whole = await t
      .as(user)
      .call(transactionRoutes.split, { id: row.id, splits: { [food]: "100.00" } });
    expect(whole.statusCode, whole.body).toBe(200);
    expect(await lastEvent(user, account.id, 2)).toMatchObject({
      type: "transaction.split",
      summary: `${user.username} split the transaction SUPERSTORE of -100.00 USD among 1 budget`,
      data: { allocations: [{ budget: food, amount: "-100.00" }] },
    });
  });
});
