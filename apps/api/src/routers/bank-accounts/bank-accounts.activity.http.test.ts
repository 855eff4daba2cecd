import { apiKeyRoutes } from "@allot/contract/api-keys/routes";
import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { accountEvents } from "@allot/db/schema/account-events";
import { testEngines } from "@allot/db/testing/test-databases";
import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { activityOf, sessionActor } from "../../../test/testing/activity";
import { useBankAccountsKit } from "../../../test/testing/bank-accounts-test-kit";
import { useTestApp } from "../../../test/testing/test-app";

describe.each(testEngines())("bank accounts over HTTP: the activity trail (%s)", (engine) => {
  const t = useTestApp(engine);
  const { banks, createdAccount } = useBankAccountsKit(t);

  const events = (owner: Parameters<typeof t.as>[0], accountId: string) => activityOf(t, owner, accountId);
  const userActor = (username: string) => sessionActor({ username });

  it("records one bank_account.created for the account and its Unallocated budget", async () => {
    const user = await t.user();
    const response = await t.as(user).call(bankAccountRoutes.create, {
      name: "Checking",
      bank: banks.euro,
      account_type: "S",
      account_number: "12345",
      posted_balance: "120",
      available_balance: "100.5",
      auto_funding_enabled: true,
    });
    expect(response.statusCode, response.body).toBe(201);
    const account = response.json();

    expect(await events(user, account.id)).toEqual([
      {
        id: expect.any(String),
        type: "bank_account.created",
        occurred_at: expect.any(String),
        bank_account: account.id,
        actor: userActor(user.username),
        request_id: response.headers["x-request-id"],
        summary: `${user.username} created the bank account Checking`,
        data: {
          bank_account: account.id,
          name: "Checking",
          bank: banks.euro,
          account_type: "S",
          currency: "EUR",
          posted_balance: "120.00",
          available_balance: "100.50",
          auto_funding_enabled: true,
          unallocated_budget: account.unallocated_budget,
        },
      },
    ]);
  });

  it("records bank_account.updated for PATCH and PUT with the fields sent, a no-op PATCH too", async () => {
    const user = await t.user();
    const account = await createdAccount(user, { account_number: "111" });

    const patch = await t
      .as(user)
      .call(bankAccountRoutes.update, { id: account.id, name: "Bills", auto_funding_enabled: true });
    expect(patch.statusCode, patch.body).toBe(200);
    const [patched] = await events(user, account.id);
    expect(patched).toMatchObject({
      type: "bank_account.updated",
      bank_account: account.id,
      actor: userActor(user.username),
      request_id: patch.headers["x-request-id"],
      summary: `${user.username} updated the bank account Bills (formerly Checking)`,
      data: { bank_account: account.id, changes: ["name", "auto_funding_enabled"] },
    });

    const put = await t.as(user).call(bankAccountRoutes.replace, {
      id: account.id,
      name: "Bills",
      bank: banks.euro,
      currency: "EUR",
      account_number: "222",
      auto_funding_enabled: false,
    });
    expect(put.statusCode, put.body).toBe(200);
    const [replaced] = await events(user, account.id);
    expect(replaced).toMatchObject({
      type: "bank_account.updated",
      request_id: put.headers["x-request-id"],
      summary: `${user.username} updated the bank account Bills`,
      data: { bank_account: account.id, changes: ["name", "account_number", "auto_funding_enabled"] },
    });

    // The caller asked; the trail says so even though nothing changed.
    const empty = await t.as(user).call(bankAccountRoutes.update, { id: account.id });
    expect(empty.statusCode, empty.body).toBe(200);
    const trail = await events(user, account.id);
    expect(trail.map((event) => event.type)).toEqual([
      "bank_account.updated",
      "bank_account.updated",
      "bank_account.updated",
      "bank_account.created",
    ]);
    expect(trail[0]).toMatchObject({
      request_id: empty.headers["x-request-id"],
      summary: `${user.username} updated the bank account Bills`,
      data: { bank_account: account.id, changes: [] },
    });
  });

  it("records bank_account.imported with an API key as the actor", async () => {
    const user = await t.user();
    const account = await createdAccount(user);
    const created = await t.as(user).call(apiKeyRoutes.create, { name: "importer" });
    expect(created.statusCode, created.body).toBe(201);
    const key = created.json();

    const response = await t
      .as(`Api-Key ${key.key}`)
      .call(bankAccountRoutes.markImported, { id: account.id, last_posted_through: "2026-03-31" });
    expect(response.statusCode, response.body).toBe(200);
    const [event] = await events(user, account.id);
    expect(event).toEqual({
      id: expect.any(String),
      type: "bank_account.imported",
      occurred_at: expect.any(String),
      bank_account: account.id,
      actor: {
        kind: "api_key",
        username: user.username,
        api_key: { uuid: key.uuid, name: "importer", prefix: key.prefix },
      },
      request_id: response.headers["x-request-id"],
      summary: `${user.username} marked the bank account Checking imported, posted through 2026-03-31`,
      data: {
        bank_account: account.id,
        last_imported_at: new Date(response.json().last_imported_at ?? "").toISOString(),
        last_posted_through: "2026-03-31",
      },
    });

    // An older import does not move last_posted_through back, and the event says what it holds.
    const late = await t
      .as(`Api-Key ${key.key}`)
      .call(bankAccountRoutes.markImported, { id: account.id, last_posted_through: "2026-03-01" });
    expect(late.statusCode, late.body).toBe(200);
    const [lateEvent] = await events(user, account.id);
    expect(lateEvent).toMatchObject({
      request_id: late.headers["x-request-id"],
      summary: `${user.username} marked the bank account Checking imported, posted through 2026-03-31`,
      data: { last_posted_through: "2026-03-31" },
    });
  });

  it("records nothing for a refused request (400, 404)", async () => {
    const owner = await t.user();
    const stranger = await t.user();
    const account = await createdAccount(owner);
    const before = await events(owner, account.id);

    const refused = await t.as(owner).call(bankAccountRoutes.update, { id: account.id, currency: "USD" });
    expect(refused.statusCode, refused.body).toBe(400);
    const hidden = await t
      .as(stranger)
      .call(bankAccountRoutes.markImported, { id: account.id, last_posted_through: "2026-03-31" });
    expect(hidden.statusCode, hidden.body).toBe(404);
    const renamed = await t.as(stranger).call(bankAccountRoutes.update, { id: account.id, name: "Mine" });
    expect(renamed.statusCode, renamed.body).toBe(404);

    expect(await events(owner, account.id)).toEqual(before);
  });

  it("records nothing when the account is deleted: its events go with it", async () => {
    const user = await t.user();
    const account = await createdAccount(user);
    const other = await createdAccount(user, { name: "Savings" });
    expect(
      (await t.as(user).call(bankAccountRoutes.update, { id: account.id, name: "Old" })).statusCode,
    ).toBe(200);
    const countOf = async (accountId?: string) =>
      (
        await t.db
          .select({ n: count() })
          .from(accountEvents)
          .where(accountId ? eq(accountEvents.bankAccountId, accountId) : undefined)
      )[0]?.n;
    expect(await countOf(account.id)).toBe(2);
    expect(await countOf(other.id)).toBe(1);
    const total = (await countOf()) ?? 0;

    const deleted = await t.as(user).call(bankAccountRoutes.delete, { id: account.id });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await countOf(account.id)).toBe(0);
    // The delete wrote no event anywhere, and another account's trail is untouched.
    expect(await countOf()).toBe(total - 2);
    expect(await countOf(other.id)).toBe(1);
    expect(await events(user, other.id)).toHaveLength(1);
  });
});
