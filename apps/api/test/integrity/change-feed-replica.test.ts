import { allocationRoutes } from "@allot/contract/allocations/routes";
import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { budgetRoutes } from "@allot/contract/budgets/routes";
import { fundingRoutes } from "@allot/contract/funding/routes";
import { fundingOccurrenceRoutes } from "@allot/contract/funding-occurrences/routes";
import type { RouteSpec } from "@allot/contract/http/route";
import { importRoutes } from "@allot/contract/import/routes";
import { internalTransactionRoutes } from "@allot/contract/internal-transactions/routes";
import { transactionCategoryRoutes } from "@allot/contract/transaction-categories/routes";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { userRoutes } from "@allot/contract/users/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyChanges, changesKit, comparable, type Replica } from "../testing/changes-test-kit";
import { aCategory, anAccount } from "../testing/fixtures";
import { type TestUser, useTestApp } from "../testing/test-app";

/*
 * docs/spec/extensions.md §2, as a property (fast-check): a random sequence of 1,000 writes to one
 * account through HTTP — every kind of write the feed must follow, refused ones included — with
 * feed reads between them from random earlier cursors and random page sizes (small ones end pages
 * inside one change number). Each read is applied to the replica its cursor belongs to, and the
 * replica must then hold exactly what the GETs give. Nothing is shrunk: a failure names its seed.
 */

const OPERATIONS = 1_000;
const ZONES = ["UTC", "Asia/Tokyo", "America/Los_Angeles"];

/** An index into whatever list the operation picks from when it runs: ops are drawn before ids exist. */
const pick = fc.nat({ max: 10_000 });
const cents = fc.integer({ min: -50_000, max: 50_000 }).filter((n) => n !== 0);
const money = (n: number) => (n / 100).toFixed(2);
const day = fc.integer({ min: 0, max: 180 });
const dateOf = (days: number, hour = 12) =>
  new Date(Date.UTC(2026, 0, 1 + days, hour)).toISOString().replace(".000Z", "Z");

const operation = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      op: fc.constant("transaction" as const),
      cents,
      day,
      hour: fc.nat({ max: 23 }),
      pending: fc.boolean(),
      category: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant("memo" as const),
      target: pick,
      text: fc.string({ maxLength: 12 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ op: fc.constant("delete-transaction" as const), target: pick }) },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant("split" as const),
      target: pick,
      budgets: fc.array(fc.record({ budget: pick, cents: fc.integer({ min: 1, max: 20_000 }) }), {
        maxLength: 3,
      }),
      // The whole amount to one budget: nothing stays in Unallocated, so a later row's running
      // balance can change while none of its allocations' budget balances does.
      whole: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant("resolve" as const), target: pick, cents: fc.option(cents), day }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant("budget" as const),
      weekly: fc.boolean(),
      cents: fc.integer({ min: 100, max: 100_000 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant("update-budget" as const),
      target: pick,
      memo: fc.string({ maxLength: 8 }),
      paused: fc.boolean(),
      cents: fc.integer({ min: 0, max: 100_000 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("archive-budget" as const), target: pick }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("delete-budget" as const), target: pick }) },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant("transfer" as const),
      from: pick,
      to: pick,
      cents: fc.integer({ min: 1, max: 30_000 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant("fund" as const), days: fc.integer({ min: 0, max: 30 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("sync" as const),
      rows: fc.array(fc.record({ cents, day, pending: fc.boolean() }), { maxLength: 6 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant("details" as const), target: pick, category: fc.boolean() }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("rename-category" as const),
      name: fc.stringMatching(/^[A-Z][a-z]{1,8}$/),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant("time-zone" as const), zone: fc.constantFrom(...ZONES) }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("mark-imported" as const), day }) },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("rename-account" as const),
      name: fc.stringMatching(/^[A-Z][a-z]{2,10}$/),
    }),
  },
);
type Operation = typeof operation extends fc.Arbitrary<infer O> ? O : never;

/**
 * A reader resumes from one of the last few cursors (small pages then end inside one change
 * number), or now and then syncs again from the start (in large pages: a page of one would cost a
 * request an object).
 */
const read = fc.oneof(
  {
    weight: 9,
    arbitrary: fc.record({
      back: fc.nat({ max: 5 }),
      pageSize: fc.constantFrom(1, 2, 3, 7, 100),
      sampled: pick,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ back: fc.constant("start" as const), pageSize: fc.constant(500), sampled: pick }),
  },
);
type Read = typeof read extends fc.Arbitrary<infer R> ? R : never;

/** The sequence: every operation, and now and then (about one in sixteen) a read after it. */
const script = fc.array(
  fc.tuple(operation, fc.oneof({ weight: 15, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: read })),
  { minLength: OPERATIONS, maxLength: OPERATIONS },
);

describe.each(testEngines())("the change feed against the GETs, as a property (%s)", (engine) => {
  const t = useTestApp(engine);
  const feed = changesKit(t);

  it(`keeps a replica equal to the GETs through ${OPERATIONS} random writes, read from random cursors`, async () => {
    await fc.assert(
      fc.asyncProperty(script, async (steps) => {
        const world = await aWorld();
        // Where readers have been: a cursor and the replica as it stood there.
        const checkpoints: { cursor?: string; replica: Replica }[] = [{ replica: new Map() }];
        let reads = 0;
        for (const [op, maybeRead] of steps) {
          await world.run(op);
          if (maybeRead) {
            await readAndCompare(world.owner, world.accountId, checkpoints, maybeRead);
            reads += 1;
          }
        }
        // A last reader syncs from the start.
        await readAndCompare(world.owner, world.accountId, checkpoints, {
          back: "start",
          pageSize: 500,
          sampled: 0,
        });
        expect(reads).toBeGreaterThan(0);
        // Every kind of write took effect at least once: the feed was shown each of them.
        expect([...world.applied].sort()).toEqual([...new Set(steps.map(([op]) => op.op))].sort());
      }),
      { numRuns: 1, endOnFailure: true },
    );
  }, 600_000);

  async function readAndCompare(
    owner: TestUser,
    accountId: string,
    checkpoints: { cursor?: string; replica: Replica }[],
    choice: Read,
  ) {
    const from = (
      choice.back === "start"
        ? checkpoints[0]
        : checkpoints[Math.max(0, checkpoints.length - 1 - choice.back)]
    ) as (typeof checkpoints)[number];
    const { changes, cursor } = await feed.follow(owner, accountId, from.cursor, choice.pageSize);
    const replica = applyChanges(new Map(from.replica), changes);
    const live = await feed.liveObjects(owner, accountId);
    expect(comparable(replica)).toEqual(comparable(live));
    // The lists are the GETs' objects: one of them checked against its own GET.
    const keys = [...replica.keys()];
    const key = keys[choice.sampled % keys.length] as string;
    const [type, id] = key.split(":") as [string, string];
    const single = await t.as(owner).call(GET_ROUTES[type] as RouteSpec, { id } as never);
    expect(comparable(new Map([[key, single.json()]]))).toEqual(
      comparable(new Map([[key, replica.get(key)]])),
    );
    checkpoints.push({ cursor, replica });
  }

  /** One account and its owner, and the writes of the script against them. */
  async function aWorld() {
    const owner = await t.user();
    const account = await anAccount(t, owner, { balance: "5000.00" });
    const category = await aCategory(t, owner, { group: "Household", name: "Sundries" });
    const transactions: { id: string; pending: boolean }[] = [];
    const budgets: string[] = [account.unallocated_budget];
    let calls = 0;
    /** The kinds of operation that took effect (answered 2xx) at least once. */
    const applied = new Set<Operation["op"]>();
    let running: Operation["op"] | undefined;
    const as = t.as(owner);
    const nth = <T>(list: T[], n: number) => (list.length === 0 ? undefined : list[n % list.length]);

    /** Any answer but a 500 is fine: a refusal must leave everything as it was, which the reads check. */
    async function send<R extends RouteSpec>(route: R, input: unknown) {
      calls += 1;
      const response = await as.callUnchecked(route, input as Record<string, unknown>);
      expect(response.statusCode, `${route.method} ${route.path}: ${response.body}`).toBeLessThan(500);
      if (response.statusCode >= 400) return undefined;
      if (running) applied.add(running);
      return response.body === "" ? {} : response.json<Record<string, unknown>>();
    }

    async function run(op: Operation) {
      running = op.op;
      switch (op.op) {
        case "transaction": {
          const created = await send(transactionRoutes.create, {
            bank_account: account.id,
            amount: money(op.cents),
            transaction_date: dateOf(op.day, op.hour),
            transaction_type: "signature_purchase",
            raw_description: `SHOP ${calls}`,
            pending: op.pending,
            ...(op.category ? { category: category.id } : {}),
          });
          if (created) transactions.push({ id: created.id as string, pending: op.pending });
          return;
        }
        case "memo": {
          const target = nth(transactions, op.target);
          if (target) await send(transactionRoutes.update, { id: target.id, memo: op.text });
          return;
        }
        case "delete-transaction": {
          const target = nth(transactions, op.target);
          if (target && (await send(transactionRoutes.delete, { id: target.id })) !== undefined)
            transactions.splice(transactions.indexOf(target), 1);
          return;
        }
        case "split": {
          const target = nth(transactions, op.target);
          if (!target) return;
          const [first] = op.budgets;
          const amount =
            op.whole && first
              ? (await as.call(transactionRoutes.get, { id: target.id })).json().amount
              : null;
          const splits =
            amount && first
              ? { [nth(budgets, first.budget) as string]: amount.replace("-", "") }
              : Object.fromEntries(op.budgets.map((s) => [nth(budgets, s.budget), money(s.cents)]));
          await send(transactionRoutes.split, { id: target.id, splits });
          return;
        }
        case "resolve": {
          const target = nth(
            transactions.filter((row) => row.pending),
            op.target,
          );
          if (!target) return;
          const resolved = await send(transactionRoutes.resolvePending, {
            id: target.id,
            posted_date: dateOf(op.day),
            ...(op.cents === null ? {} : { amount: money(op.cents) }),
          });
          if (resolved) target.pending = false;
          return;
        }
        case "budget": {
          const created = await send(budgetRoutes.create, {
            name: `Budget ${calls}`,
            bank_account: account.id,
            budget_type: "G",
            funding_type: "F",
            target_balance: money(op.cents),
            funding_amount: money(Math.ceil(op.cents / 10)),
            ...(op.weekly ? { funding_schedule: "DTSTART:20260101\nRRULE:FREQ=WEEKLY" } : {}),
          });
          if (created) budgets.push(created.id as string);
          return;
        }
        case "update-budget": {
          const target = nth(budgets.slice(1), op.target);
          if (target)
            await send(budgetRoutes.update, {
              id: target,
              memo: op.memo,
              paused: op.paused,
              target_balance: money(op.cents),
            });
          return;
        }
        case "archive-budget": {
          const target = nth(budgets.slice(1), op.target);
          if (target) await send(budgetRoutes.archive, { id: target });
          return;
        }
        case "delete-budget": {
          const target = nth(budgets.slice(1), op.target);
          if (target && (await send(budgetRoutes.delete, { id: target })) !== undefined)
            budgets.splice(budgets.indexOf(target), 1);
          return;
        }
        case "transfer": {
          const source = nth(budgets, op.from);
          const destination = nth(budgets, op.to);
          if (source && destination && source !== destination)
            await send(internalTransactionRoutes.create, {
              bank_account: account.id,
              src_budget: source,
              dst_budget: destination,
              amount: money(op.cents),
            });
          return;
        }
        case "fund": {
          const asOf = new Date(Date.now() + op.days * 86_400_000).toISOString().slice(0, 10);
          await send(fundingRoutes.run, { id: account.id, as_of: asOf });
          return;
        }
        case "sync": {
          const synced = await send(importRoutes.syncScrape, {
            id: account.id,
            scraped_at: new Date().toISOString(),
            ending_balance: "0.00",
            transactions: op.rows.map((row, i) => ({
              is_pending: row.pending,
              posted_date: dateOf(row.day).slice(0, 10),
              raw_description: `SCRAPED ${calls}-${i}`,
              amount: money(row.cents),
            })),
          });
          // What the sync put in: the list of the account says which are pending.
          if (synced) {
            for (const id of synced.new_transaction_ids as string[])
              transactions.push({ id, pending: false });
            const pendingIds = new Set((await pendingOf()).map((row) => row.id));
            for (let i = transactions.length - 1; i >= 0; i -= 1) {
              const row = transactions[i] as { id: string; pending: boolean };
              if (row.pending && !pendingIds.has(row.id)) transactions.splice(i, 1);
            }
            for (const id of pendingIds)
              if (!transactions.some((row) => row.id === id)) transactions.push({ id, pending: true });
            for (const row of transactions) row.pending = pendingIds.has(row.id);
          }
          return;
        }
        case "details": {
          const target = nth(
            transactions.filter((row) => !row.pending),
            op.target,
          );
          if (target)
            await send(importRoutes.transactionDetails, {
              id: account.id,
              overwrite: true,
              details: [
                {
                  transaction: target.id,
                  details: { merchant: { name: `Merchant ${calls}` } },
                  ...(op.category ? { category: "Household : Sundries" } : {}),
                },
              ],
            });
          return;
        }
        case "rename-category":
          await send(transactionCategoryRoutes.update, { id: category.id, name: `${op.name} ${calls}` });
          return;
        case "time-zone":
          await send(userRoutes.updateMe, { timezone: op.zone });
          return;
        case "mark-imported":
          await send(bankAccountRoutes.markImported, {
            id: account.id,
            last_posted_through: dateOf(op.day).slice(0, 10),
          });
          return;
        case "rename-account":
          await send(bankAccountRoutes.update, { id: account.id, name: op.name });
          return;
      }
    }

    async function pendingOf() {
      const response = await as.call(transactionRoutes.list, {
        bank_account: account.id,
        pending: true,
        page_size: 500,
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().results;
    }

    return {
      owner,
      accountId: account.id,
      run,
      applied,
    };
  }
});

const GET_ROUTES: Record<string, RouteSpec> = {
  bank_account: bankAccountRoutes.get,
  budget: budgetRoutes.get,
  transaction: transactionRoutes.get,
  allocation: allocationRoutes.get,
  internal_transaction: internalTransactionRoutes.get,
  funding_occurrence: fundingOccurrenceRoutes.get,
};
