import { budgetRoutes } from "@allot/contract/budgets/routes";
import { internalTransactionRoutes } from "@allot/contract/internal-transactions/routes";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { rowsOf } from "@allot/db/rows-of";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { budgets } from "@allot/db/schema/budgets";
import { describeOnPostgres } from "@allot/db/testing/server-suites";
import { lockAccountForChange } from "@allot/domain/ledger/change-number";
import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { applyChanges, changesKit, comparable, type Replica } from "../testing/changes-test-kit";
import { anAccount } from "../testing/fixtures";
import { useTestApp } from "../testing/test-app";
import { type Caller, fetchInject, routeCaller } from "../testing/test-client";

/*
 * The trap of sequence cursors (docs/decisions/0035): a number taken by a transaction that commits
 * after a reader has moved past it. Here writers commit while readers read, over real sockets
 * (PostgreSQL only: PGlite serves one connection, so nothing would run at once there).
 */
describeOnPostgres("the change feed under concurrent writers and readers (postgres)", () => {
  const t = useTestApp("postgres");
  const feed = changesKit(t);

  /** How many backends wait for a row lock right now. */
  async function lockWaiters() {
    const [row] = rowsOf<{ n: number }>(
      await t.db.execute(
        sql`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`,
      ),
    );
    return row?.n ?? 0;
  }

  it("a write cannot take a number while an earlier one is uncommitted, so no reader passes it", async () => {
    const owner = await t.user();
    const account = await anAccount(t, owner);
    const { cursor: before } = await feed.follow(owner, account.id);

    // A slow writer: takes the account's next number, writes a budget, and waits before committing.
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let slowBudget = "";
    let taken = () => {};
    const numberTaken = new Promise<void>((resolve) => {
      taken = resolve;
    });
    const slow = t.db.transaction(async (tx) => {
      await lockAccountForChange(tx, eq(bankAccounts.id, account.id));
      const [row] = await tx
        .insert(budgets)
        .values({ bankAccountId: account.id, name: "Slow", budgetType: "G", fundingType: "F" })
        .returning({ id: budgets.id });
      slowBudget = row?.id ?? "";
      taken();
      await released;
    });
    await numberTaken;

    // A fast writer starts after it: it waits for the account's lock, so it cannot number (or
    // commit) its change before the slow one's.
    const fast = t.as(owner).call(budgetRoutes.create, {
      name: "Fast",
      bank_account: account.id,
      budget_type: "G",
      funding_type: "F",
      target_balance: "10",
      funding_amount: "1",
    });
    for (let polls = 0; (await lockWaiters()) === 0; polls += 1) {
      if (polls > 500) throw new Error("the second writer never waited for the account's lock");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    // A reader meanwhile sees neither, and its cursor does not move past the slow number.
    const during = await feed.follow(owner, account.id, before);
    expect(during.changes).toEqual([]);

    release();
    await slow;
    const fastBudget = (await fast).json().id;
    const after = await feed.follow(owner, account.id, during.cursor);
    const budgetIds = after.changes.filter((change) => change.type === "budget").map((change) => change.id);
    expect(budgetIds).toEqual(expect.arrayContaining([slowBudget, fastBudget]));
    // In the order they committed: the slow one first.
    expect(budgetIds.indexOf(slowBudget)).toBeLessThan(budgetIds.indexOf(fastBudget));
  });

  it("readers following the feed while four clients write keep replicas equal to the GETs", {
    timeout: 180_000,
  }, async () => {
    const baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
    const owner = await t.user();
    const account = await anAccount(t, owner, { balance: "5000.00" });
    const bearer = await t.login(owner.email, owner.password);
    const api = () => routeCaller(fetchInject(baseUrl), bearer);
    let writing = true;

    async function writer(index: number) {
      const client = api();
      const budgetIds: string[] = [account.unallocated_budget];
      const transactionIds: string[] = [];
      for (let n = 0; n < 30; n++) {
        const roll = (index * 31 + n * 17) % 10;
        if (roll < 4 || transactionIds.length === 0) {
          const reply = await client.call(transactionRoutes.create, {
            bank_account: account.id,
            amount: `-${(n % 7) + 1}.${String(index).padStart(2, "0")}`,
            // Older and newer rows: an older one rewrites every later row's running balance.
            transaction_date: new Date(Date.UTC(2026, 0, 1 + ((n * 13 + index * 5) % 60), 12)).toISOString(),
            transaction_type: "ach",
            raw_description: `client ${index} #${n}`,
          });
          expect(reply.statusCode, reply.body).toBe(201);
          transactionIds.push(reply.json().id);
        } else if (roll < 5) {
          const reply = await client.call(budgetRoutes.create, {
            name: `Budget ${index}-${n}`,
            bank_account: account.id,
            budget_type: "G",
            funding_type: "F",
            target_balance: "100",
            funding_amount: "5",
          });
          expect(reply.statusCode, reply.body).toBe(201);
          budgetIds.push(reply.json().id);
        } else if (roll < 7) {
          const [source, destination] = [budgetIds[0], budgetIds[budgetIds.length - 1]];
          if (source === destination) continue;
          const reply = await client.call(internalTransactionRoutes.create, {
            bank_account: account.id,
            src_budget: source as string,
            dst_budget: destination as string,
            amount: "1.00",
          });
          expect(reply.statusCode, reply.body).toBe(201);
        } else if (roll < 8) {
          const target = transactionIds[n % transactionIds.length] as string;
          const reply = await client.call(transactionRoutes.split, {
            id: target,
            splits: { [budgetIds[budgetIds.length - 1] as string]: "0.50" },
          });
          expect(reply.statusCode, reply.body).toBeLessThan(500);
        } else if (roll < 9) {
          const target = transactionIds.pop() as string;
          const reply = await client.call(transactionRoutes.delete, { id: target });
          expect(reply.statusCode, reply.body).toBe(204);
        } else {
          const reply = await client.call(budgetRoutes.update, {
            id: budgetIds[budgetIds.length - 1] as string,
            memo: `memo ${n}`,
          });
          expect(reply.statusCode, reply.body).toBeLessThan(500);
        }
      }
    }

    /** Follows the feed over and over while the writers run, in pages of `pageSize`, then once more. */
    async function reader(who: Caller, pageSize: number) {
      const replica: Replica = new Map();
      let cursor: string | undefined;
      let rounds = 0;
      do {
        const next = await feed.follow(who, account.id, cursor, pageSize);
        applyChanges(replica, next.changes);
        cursor = next.cursor;
        rounds += 1;
      } while (writing);
      applyChanges(replica, (await feed.follow(who, account.id, cursor, pageSize)).changes);
      return { replica, rounds };
    }

    const readers = [reader(bearer, 3), reader(bearer, 50)];
    await Promise.all([0, 1, 2, 3].map(writer));
    writing = false;
    const live = comparable(await feed.liveObjects(owner, account.id));
    for (const { replica, rounds } of await Promise.all(readers)) {
      expect(rounds).toBeGreaterThan(1);
      expect(comparable(replica)).toEqual(live);
    }
  });
});
