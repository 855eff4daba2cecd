import { budgetRoutes } from "@allot/contract/budgets/routes";
import type { Change } from "@allot/contract/changes/change";
import { fundingRoutes } from "@allot/contract/funding/routes";
import { internalTransactionRoutes } from "@allot/contract/internal-transactions/routes";
import { transactionCategoryRoutes } from "@allot/contract/transaction-categories/routes";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { userRoutes } from "@allot/contract/users/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { applyChanges, changesKit, comparable, type Replica } from "../../../test/testing/changes-test-kit";
import { aBudget, aCategory, anAccount, aTransaction } from "../../../test/testing/fixtures";
import { invitationKit } from "../../../test/testing/invitation-test-kit";
import { useTestApp } from "../../../test/testing/test-app";
import { useTestMailbox } from "../../../test/testing/test-mailbox";

const summary = (changes: Change[]) =>
  changes.map((change) => `${change.type}${change.deleted ? " deleted" : ""}`).sort();

/*
 * GET /bank-accounts/{id}/changes/ over HTTP (docs/spec/extensions.md §2): what a write puts in the
 * feed, derived fields included, and a replica kept from the feed equal to what the GETs give.
 */
describe.each(testEngines())("the change feed (%s)", (engine) => {
  const t = useTestApp(engine);
  const feed = changesKit(t);
  const invitations = invitationKit(
    t,
    useTestMailbox(() => t.db),
  );

  /** A replica from a full snapshot, and the cursor to follow it with. */
  async function replicate(who: Parameters<typeof feed.page>[0], accountId: string) {
    const { changes, cursor } = await feed.follow(who, accountId);
    return { replica: applyChanges(new Map(), changes), cursor };
  }

  async function expectInSync(who: Parameters<typeof feed.page>[0], accountId: string, replica: Replica) {
    expect(comparable(replica)).toEqual(comparable(await feed.liveObjects(who, accountId)));
  }

  it("answers every live object of the account without since, each as its GET answers it", async () => {
    const owner = await t.user();
    const account = await anAccount(t, owner);
    const budget = await aBudget(t, owner, account);
    const transaction = await aTransaction(t, owner, account);
    const { replica, cursor } = await replicate(owner, account.id);
    expect([...replica.keys()].sort()).toEqual(
      [
        `bank_account:${account.id}`,
        `budget:${account.unallocated_budget}`,
        `budget:${budget.id}`,
        `transaction:${transaction.id}`,
        ...transaction.allocations.map((allocation) => `allocation:${allocation.id}`),
      ].sort(),
    );
    expect(replica.get(`transaction:${transaction.id}`)).toEqual(
      (await t.as(owner).call(transactionRoutes.get, { id: transaction.id })).json(),
    );
    await expectInSync(owner, account.id, replica);
    // Nothing happened since: the same cursor answers nothing, and again.
    for (let i = 0; i < 2; i += 1) {
      const again = await feed.page(owner, account.id, { since: cursor });
      expect(again).toEqual({ cursor, has_more: false, changes: [] });
    }
  });

  it("gives a change each object it touches, in its latest state, once", async () => {
    const owner = await t.user();
    const account = await anAccount(t, owner);
    const { replica, cursor } = await replicate(owner, account.id);

    const budget = await aBudget(t, owner, account, { name: "Car" });
    for (const memo of ["one", "two", "three"])
      await t.as(owner).call(budgetRoutes.update, { id: budget.id, memo });
    const delta = await feed.follow(owner, account.id, cursor);
    expect(summary(delta.changes)).toEqual(["budget"]);
    expect(delta.changes[0]?.object).toMatchObject({ id: budget.id, memo: "three" });
    applyChanges(replica, delta.changes);
    await expectInSync(owner, account.id, replica);
  });

  it("carries derived fields: running balances a late row rewrites, budget balances a split moves", async () => {
    const owner = await t.user();
    const account = await anAccount(t, owner);
    const budget = await aBudget(t, owner, account);
    const later = await aTransaction(t, owner, account, { transaction_date: "2026-03-20T12:00:00Z" });
    const { replica, cursor } = await replicate(owner, account.id);

    // An older row: the later one's running balance and its Unallocated allocation's budget balance move.
    const older = await aTransaction(t, owner, account, { transaction_date: "2026-03-01T12:00:00Z" });
    const delta = await feed.follow(owner, account.id, cursor);
    const ids = delta.changes.map((change) => change.id);
    expect(ids).toEqual(expect.arrayContaining([older.id, later.id, account.id, account.unallocated_budget]));
    applyChanges(replica, delta.changes);
    await expectInSync(owner, account.id, replica);

    const split = await t
      .as(owner)
      .call(transactionRoutes.split, { id: later.id, splits: { [budget.id]: "4.00" } });
    expect(split.statusCode, split.body).toBe(200);
    const afterSplit = await feed.follow(owner, account.id, delta.cursor);
    expect(afterSplit.changes.map((change) => change.id)).toEqual(
      expect.arrayContaining([later.id, budget.id, account.unallocated_budget]),
    );
    applyChanges(replica, afterSplit.changes);
    await expectInSync(owner, account.id, replica);
  });

  it("leaves tombstones for deletions, cascades included, and a replica drops them", async () => {
    const owner = await t.user();
    const account = await anAccount(t, owner);
    const transaction = await aTransaction(t, owner, account);
    const budget = await aBudget(t, owner, account, {
      funding_schedule: "DTSTART:20260101\nRRULE:FREQ=WEEKLY",
    });
    // Budgets are funded from the day they are made: three weeks ahead holds a few weekly events.
    const asOf = new Date(Date.now() + 21 * 86_400_000).toISOString().slice(0, 10);
    const run = await t.as(owner).call(fundingRoutes.run, { id: account.id, as_of: asOf });
    expect(run.statusCode, run.body).toBe(200);
    const { replica, cursor } = await replicate(owner, account.id);
    const occurrences = [...replica.keys()].filter((key) => key.startsWith("funding_occurrence:"));
    const transfers = [...replica.keys()].filter((key) => key.startsWith("internal_transaction:"));
    expect(occurrences.length).toBeGreaterThan(0);

    expect((await t.as(owner).call(transactionRoutes.delete, { id: transaction.id })).statusCode).toBe(204);
    expect((await t.as(owner).call(budgetRoutes.delete, { id: budget.id })).statusCode).toBe(204);
    const delta = await feed.follow(owner, account.id, cursor);
    const deleted = delta.changes
      .filter((change) => change.deleted)
      .map((change) => `${change.type}:${change.id}`);
    expect(deleted.sort()).toEqual(
      [
        `transaction:${transaction.id}`,
        ...transaction.allocations.map((allocation) => `allocation:${allocation.id}`),
        `budget:${budget.id}`,
        ...occurrences,
        ...transfers,
      ].sort(),
    );
    expect(delta.changes.filter((change) => change.deleted).every((change) => change.object === null)).toBe(
      true,
    );
    applyChanges(replica, delta.changes);
    await expectInSync(owner, account.id, replica);
  });

  it("follows what other objects put in an answer: a category's new name, the first owner's time zone", async () => {
    const owner = await t.user();
    const account = await anAccount(t, owner);
    const category = await aCategory(t, owner, { group: "Food", name: "Snacks" });
    const transaction = await aTransaction(t, owner, account, { category: category.id });
    const { replica, cursor } = await replicate(owner, account.id);

    const renamed = await t
      .as(owner)
      .call(transactionCategoryRoutes.update, { id: category.id, name: "Treats" });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const delta = await feed.follow(owner, account.id, cursor);
    expect(summary(delta.changes)).toEqual(["allocation", "transaction"]);
    expect(delta.changes.find((change) => change.id === transaction.id)?.object).toMatchObject({
      category_full_name: "Food : Treats",
    });
    applyChanges(replica, delta.changes);

    const moved = await t.as(owner).call(userRoutes.updateMe, { timezone: "Asia/Tokyo" });
    expect(moved.statusCode, moved.body).toBe(200);
    const after = await feed.follow(owner, account.id, delta.cursor);
    expect(summary(after.changes)).toEqual(["bank_account"]);
    expect(after.changes[0]?.object).toMatchObject({ timezone: "Asia/Tokyo" });
    applyChanges(replica, after.changes);
    await expectInSync(owner, account.id, replica);
  });

  it("puts the account in the feed when an invitation is accepted: its owners changed", async () => {
    const owner = await t.user();
    const partner = await t.user();
    const account = await anAccount(t, owner);
    const { replica, cursor } = await replicate(owner, account.id);

    const { secret } = await invitations.invited(owner, account.id, partner.email);
    const accepted = await invitations.accept(secret);
    expect(accepted.statusCode, accepted.body).toBe(200);
    const delta = await feed.follow(owner, account.id, cursor);
    expect(summary(delta.changes)).toEqual(["bank_account"]);
    expect(delta.changes[0]?.object).toMatchObject({ owners: [owner.username, partner.username] });
    applyChanges(replica, delta.changes);
    await expectInSync(owner, account.id, replica);
    // The new owner reads the same feed.
    expect(comparable(applyChanges(new Map(), (await feed.follow(partner, account.id)).changes))).toEqual(
      comparable(replica),
    );
  });

  it("pages through a cursor inside one change number without losing or repeating an entry", async () => {
    const owner = await t.user();
    const account = await anAccount(t, owner);
    const first = await aBudget(t, owner, account);
    const second = await aBudget(t, owner, account);
    // One transfer: one change number, three objects (the transfer and both budgets) and more.
    const moved = await t.as(owner).call(internalTransactionRoutes.create, {
      bank_account: account.id,
      src_budget: first.id,
      dst_budget: second.id,
      amount: "1.00",
    });
    expect(moved.statusCode, moved.body).toBe(201);
    await t
      .as(owner)
      .call(transactionRoutes.update, { id: (await aTransaction(t, owner, account)).id, memo: "x" });

    const whole = await feed.follow(owner, account.id);
    const paged = await feed.follow(owner, account.id, undefined, 1);
    expect(paged.pages).toBe(whole.changes.length);
    expect(paged.changes).toEqual(whole.changes);
    expect(new Set(paged.changes.map((change) => change.id)).size).toBe(paged.changes.length);
  });
});
