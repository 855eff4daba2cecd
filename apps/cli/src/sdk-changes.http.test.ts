import { applyChanges, changesKit, comparable, type Replica } from "@allot/api/test/testing/changes-test-kit";
import { type TestUser, useTestApp } from "@allot/api/test/testing/test-app";
import type { ChangesPage } from "@allot/contract/changes/change";
import { testEngines } from "@allot/db/testing/test-databases";
import { createBank } from "@allot/domain/banks/create-bank";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { isApiError } from "@allot/sdk/api-error";
import { createClient } from "@allot/sdk/client";
import { beforeAll, describe, expect, it } from "vitest";
import { expireChangeCursors } from "../test/testing/expire-change-cursors";

/** Every page an iteration yields. */
async function pagesOf(iteration: AsyncIterable<ChangesPage>): Promise<ChangesPage[]> {
  const pages: ChangesPage[] = [];
  for await (const page of iteration) pages.push(page);
  return pages;
}

/*
 * `client.changes.iterate` against the real API over HTTP (docs/spec/extensions.md §2): the pages a
 * replica is built from, resuming from a stored cursor, and the 410 a client starts over on.
 */
describe.each(testEngines())("the SDK's change feed against the API (%s)", (engine) => {
  const t = useTestApp(engine);
  const feed = changesKit(t);
  let baseUrl: string;

  beforeAll(async () => {
    baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
  });

  /**
   * A user's account with something of every kind the feed carries but funding occurrences: two
   * budgets, four transactions (one split), and a transfer.
   */
  async function anAccountWithHistory() {
    const user = await t.user();
    const client = createClient({ baseUrl, auth: { bearer: user.bearer.replace(/^Bearer /, "") } });
    const bank = await createBank(internalContext(t.db, "cli"), { name: `Feed ${user.id}`, currency: "USD" });
    const account = await client.bankAccounts.create({
      name: "Household",
      bank: bank.id,
      posted_balance: "1000.00",
      available_balance: "1000.00",
    });
    const unallocated = account.unallocated_budget as string;
    const budget = (name: string) =>
      client.budgets.create({
        name,
        bank_account: account.id,
        budget_type: "G",
        funding_type: "F",
        target_balance: "500",
        funding_amount: "50",
      });
    const groceries = await budget("Groceries");
    const rent = await budget("Rent");
    const transactions = [];
    for (const [day, amount] of [
      ["03", "-12.50"],
      ["05", "-40.00"],
      ["07", "250.00"],
      ["09", "-8.25"],
    ] as const)
      transactions.push(
        await client.transactions.create({
          bank_account: account.id,
          amount,
          transaction_date: `2026-03-${day}T12:00:00Z`,
          transaction_type: "signature_purchase",
          raw_description: `SHOP ${day}`,
        }),
      );
    await client.internalTransactions.create({
      bank_account: account.id,
      amount: "25.00",
      src_budget: unallocated,
      dst_budget: groceries.id,
    });
    const spent = transactions[1];
    if (!spent) throw new Error("no transaction");
    await client.transactions.split({
      id: spent.id,
      splits: { [groceries.id]: "30.00", [rent.id]: "10.00" },
    });
    return { user, client, account, groceries, transactions };
  }

  const expectInSync = async (user: TestUser, accountId: string, replica: Replica) =>
    expect(comparable(replica)).toEqual(comparable(await feed.liveObjects(user, accountId)));

  it("iterates page after page (page_size 3) to a replica equal to the lists, and resumes from a stored cursor", async () => {
    const { user, client, account } = await anAccountWithHistory();
    const pages = await pagesOf(client.changes.iterate(account.id, { pageSize: 3 }));
    expect(pages.length).toBeGreaterThan(3);
    expect(pages.map((page) => page.has_more)).toEqual([...pages.slice(1).map(() => true), false]);
    for (const page of pages.slice(0, -1)) expect(page.changes).toHaveLength(3);
    const types = new Set(pages.flatMap((page) => page.changes.map((change) => change.type)));
    expect([...types].sort()).toEqual([
      "allocation",
      "bank_account",
      "budget",
      "internal_transaction",
      "transaction",
    ]);
    const replica = applyChanges(
      new Map(),
      pages.flatMap((page) => page.changes),
    );
    await expectInSync(user, account.id, replica);

    // A client that applied the first page, stored its cursor and stopped there, later resumes.
    const resumed: Replica = new Map();
    let stored: string | undefined;
    for await (const page of client.changes.iterate(account.id, { pageSize: 3 })) {
      applyChanges(resumed, page.changes);
      stored = page.cursor;
      break;
    }
    expect(stored).toBe(pages[0]?.cursor);
    for await (const page of client.changes.iterate(account.id, { since: stored, pageSize: 3 }))
      applyChanges(resumed, page.changes);
    expect(comparable(resumed)).toEqual(comparable(replica));
  });

  it("gives only what changed after a cursor: an edit, then a deletion's tombstones", async () => {
    const { user, client, account, groceries, transactions } = await anAccountWithHistory();
    const full = await pagesOf(client.changes.iterate(account.id));
    const replica = applyChanges(
      new Map(),
      full.flatMap((page) => page.changes),
    );
    const cursor = full.at(-1)?.cursor;

    await client.budgets.update({ id: groceries.id, memo: "weekly shop" });
    const edited = await pagesOf(client.changes.iterate(account.id, { since: cursor }));
    expect(edited).toHaveLength(1);
    expect(edited[0]?.changes).toEqual([
      {
        type: "budget",
        id: groceries.id,
        deleted: false,
        object: expect.objectContaining({ memo: "weekly shop" }),
      },
    ]);
    applyChanges(replica, edited[0]?.changes ?? []);

    const doomed = transactions[0];
    if (!doomed) throw new Error("no transaction");
    await client.transactions.delete({ id: doomed.id });
    const afterDelete = await pagesOf(
      client.changes.iterate(account.id, { since: edited[0]?.cursor, pageSize: 2 }),
    );
    const changes = afterDelete.flatMap((page) => page.changes);
    expect(
      changes
        .filter((change) => change.deleted)
        .map((change) => `${change.type}:${change.id}`)
        .sort(),
    ).toEqual(
      [
        `transaction:${doomed.id}`,
        ...doomed.allocations.map((allocation) => `allocation:${allocation.id}`),
      ].sort(),
    );
    expect(changes.map((change) => change.id)).not.toContain(groceries.id);
    applyChanges(replica, changes);
    await expectInSync(user, account.id, replica);

    // Nothing since: one empty page.
    const quiet = await pagesOf(client.changes.iterate(account.id, { since: afterDelete.at(-1)?.cursor }));
    expect(quiet.map((page) => ({ has_more: page.has_more, changes: page.changes }))).toEqual([
      { has_more: false, changes: [] },
    ]);
  });

  it("throws the API's 410 as an ApiError with code cursor_expired, after which a full sync starts over", async () => {
    const { user, client, account, groceries } = await anAccountWithHistory();
    const full = await pagesOf(client.changes.iterate(account.id));
    const cursor = full.at(-1)?.cursor;
    await client.budgets.update({ id: groceries.id, memo: "after the cursor" });
    await expireChangeCursors(t.db, account.id);

    const expired = await pagesOf(client.changes.iterate(account.id, { since: cursor })).catch(
      (e: unknown) => e,
    );
    expect(isApiError(expired, 410)).toBe(true);
    expect(expired).toMatchObject({ status: 410, code: "cursor_expired" });

    const again = await pagesOf(client.changes.iterate(account.id));
    await expectInSync(
      user,
      account.id,
      applyChanges(
        new Map(),
        again.flatMap((page) => page.changes),
      ),
    );
    // A cursor that is not one is a 400 on since, not a 410.
    const malformed = await pagesOf(client.changes.iterate(account.id, { since: "not-a-cursor" })).catch(
      (e: unknown) => e,
    );
    expect(malformed).toMatchObject({ status: 400, fields: { since: [expect.any(String)] } });
  });
});
