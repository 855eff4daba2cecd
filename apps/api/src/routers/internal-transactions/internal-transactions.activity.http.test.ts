import { apiKeyRoutes } from "@allot/contract/api-keys/routes";
import { internalTransactionRoutes } from "@allot/contract/internal-transactions/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { beforeAll, describe, expect, it } from "vitest";
import { activityCount, activityOf } from "../../../test/testing/activity";
import { aBudget, anAccount } from "../../../test/testing/fixtures";
import { type TestUser, useTestApp } from "../../../test/testing/test-app";

/** docs/spec/extensions.md §3: a transfer is one `transfer.created`, written with it. */
describe.each(testEngines())("internal transactions in the activity trail (%s)", (engine) => {
  const t = useTestApp(engine);
  let owner: TestUser;

  beforeAll(async () => {
    owner = await t.user();
  });

  const transfers = (accountId: string) => activityOf(t, owner, accountId, ["transfer.created"]);
  const eventCount = (accountId: string) => activityCount(t, owner, accountId);

  it("records the transfer, its sentence and the caller's session, under the request's id", async () => {
    const account = await anAccount(t, owner, { currency: "USD" });
    const groceries = await aBudget(t, owner, account, { name: "Groceries" });
    const response = await t.as(owner).call(internalTransactionRoutes.create, {
      bank_account: account.id,
      amount: "50",
      src_budget: account.unallocated_budget,
      dst_budget: groceries.id,
    });
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json();

    expect(await transfers(account.id)).toEqual([
      expect.objectContaining({
        type: "transfer.created",
        bank_account: account.id,
        actor: { kind: "user", username: owner.username, api_key: null },
        request_id: response.headers["x-request-id"],
        summary: `${owner.username} moved 50.00 USD from Unallocated to Groceries`,
        // The internal transaction exactly as the API answered it.
        data: { ...created, completed_budgets: [] },
      }),
    ]);
  });

  it("names the API key a transfer was made with, and a Goal it completed", async () => {
    const account = await anAccount(t, owner, { currency: "EUR" });
    const goal = await aBudget(t, owner, account, { name: "Holiday", target_balance: "500" });
    const key = await t.as(owner).call(apiKeyRoutes.create, { name: "budget-bot" });
    expect(key.statusCode, key.body).toBe(201);
    const { uuid, name, prefix, key: secret } = key.json();

    const response = await t.as(`Api-Key ${secret}`).call(internalTransactionRoutes.create, {
      bank_account: account.id,
      amount: "500.00",
      src_budget: account.unallocated_budget,
      dst_budget: goal.id,
      effective_date: "2026-03-01",
    });
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json();

    const [event] = await transfers(account.id);
    expect(event).toMatchObject({
      actor: { kind: "api_key", username: owner.username, api_key: { uuid, name, prefix } },
      request_id: response.headers["x-request-id"],
      summary: `${owner.username} moved 500.00 EUR from Unallocated to Holiday`,
      data: {
        id: created.id,
        amount: "500.00",
        effective_date: created.effective_date,
        completed_budgets: [goal.id],
      },
    });
  });

  it("records nothing for a refused transfer", async () => {
    const account = await anAccount(t, owner);
    const goal = await aBudget(t, owner, account);
    const before = await eventCount(account.id);

    const invalid = await t.as(owner).call(internalTransactionRoutes.create, {
      bank_account: account.id,
      amount: "0",
      src_budget: account.unallocated_budget,
      dst_budget: goal.id,
    });
    expect(invalid.statusCode, invalid.body).toBe(400);
    const stranger = await t.user();
    const foreign = await t.as(stranger).call(internalTransactionRoutes.create, {
      bank_account: account.id,
      amount: "5",
      src_budget: account.unallocated_budget,
      dst_budget: goal.id,
    });
    // Another user's account reads as an unknown one: 400 on bank_account.
    expect(foreign.statusCode, foreign.body).toBe(400);

    expect(await eventCount(account.id)).toBe(before);
    expect(await transfers(account.id)).toEqual([]);
  });
});
