import { BUDGET_TYPE, FUNDING_TYPE } from "@allot/contract/budgets/budget-kinds";
import { budgetRoutes } from "@allot/contract/budgets/routes";
import { internalTransactionRoutes } from "@allot/contract/internal-transactions/routes";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { budgets } from "@allot/db/schema/budgets";
import { internalTransactions } from "@allot/db/schema/internal-transactions";
import { transactionAllocations } from "@allot/db/schema/transaction-allocations";
import { transactions } from "@allot/db/schema/transactions";
import { describeOnPostgres } from "@allot/db/testing/server-suites";
import { verifyLedger } from "@allot/domain/ledger/verify-ledger";
import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { aBank, aBudget, anAccount } from "../testing/fixtures";
import { useTestApp } from "../testing/test-app";
import { fetchInject, routeCaller } from "../testing/test-client";
import { globalCategoryIds } from "./ledger-client";
import { allocationTotals, balanceProblems, describeTotals, money, sameTotals } from "./ledger-model";
import { CATEGORIES, dateOf, type LiveTransaction, OPENING } from "./ledger-scenario";

/*
 * Eight clients over real sockets writing to one account at once (PostgreSQL only): no 500, every
 * acknowledged write kept, and the ledger invariant holding when they are done.
 */

/** A small seeded generator: the same run every time, so a failure can be replayed. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

const CLIENTS = 8;
const REQUESTS_PER_CLIENT = 40;

/** An acknowledged split: when it was sent and answered (one clock for all clients), and its answer. */
interface SplitAck {
  sent: number;
  answered: number;
  allocations: Map<string, bigint>;
}

/** A transaction as the concurrent clients know it: the budget its create put it in. */
interface BusyTransaction extends LiveTransaction {
  createdIn: string;
}

// PostgreSQL only: PGlite serves one connection, so nothing would run at once there.
describeOnPostgres("ledger integrity under concurrent HTTP clients (postgres)", () => {
  const t = useTestApp("postgres");

  it("keeps the invariant, every acknowledged write and no 500 with 8 clients on one account", {
    timeout: 120_000,
  }, async () => {
    const baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
    const user = await t.user();
    const bank = await aBank(t, { name: "Busy Bank", currency: "EUR" });
    const account = await anAccount(t, user, { name: "Busy", bank: bank.id, balance: money(OPENING) });
    const accountId = account.id;
    const unallocatedId = account.unallocated_budget;
    const [groceriesName, rentName] = CATEGORIES;
    const categoryIds = await globalCategoryIds(t.as(user), CATEGORIES);
    // Two goals both listing Rent (ambiguous: Rent spend stays Unallocated), and one budget alone
    // listing Groceries (posted Groceries spend goes there). None of them is archived or deleted.
    const [goalA, goalB] = await t.db
      .insert(budgets)
      .values(
        ["A", "B"].map((name) => ({
          bankAccountId: accountId,
          name: `Goal ${name}`,
          budgetType: BUDGET_TYPE.goal,
          fundingType: FUNDING_TYPE.fixedAmount,
          targetBalance: "500",
          autoSpend: [rentName],
        })),
      )
      .returning();
    const groceries = await aBudget(t, user, account, {
      name: "Groceries",
      budget_type: "C",
      target_balance: "300.00",
      funding_amount: "10.00",
      auto_spend: [groceriesName],
    });
    const budgetIds = [unallocatedId, goalA?.id as string, goalB?.id as string, groceries.id];
    const routedTo = (pending: boolean, category: string | null) =>
      !pending && category === groceriesName ? groceries.id : unallocatedId;

    const live = new Map<string, BusyTransaction>();
    const deleted = new Set<string>();
    const transfers = new Map<string, { amount: string; src: string; dst: string }>();
    const splits = new Map<string, SplitAck[]>();
    // Budgets made during the run (never allocated to nor transferred with) and what became of them.
    const madeBudgets = new Map<string, "active" | "archived" | "deleted">();
    let clock = 0;
    const failures: string[] = [];
    // Successful requests per kind: the run must have exercised every kind of write.
    const succeeded: Record<string, number> = {};
    const record = (what: string, reply: { statusCode: number; body: string }, allowed: number[]) => {
      const kind = what.split(" ")[0] as string;
      if (reply.statusCode < 300) succeeded[kind] = (succeeded[kind] ?? 0) + 1;
      if (!allowed.includes(reply.statusCode)) failures.push(`${what} -> ${reply.statusCode} ${reply.body}`);
    };

    async function client(index: number) {
      const random = seeded(index + 1);
      // Over a real socket: the eight clients' requests really run at once.
      const api = routeCaller(fetchInject(baseUrl), await t.login(user.email, user.password));
      const anyLive = () => [...live.keys()][Math.floor(random() * live.size)];
      const mine: { id: string; archived: boolean }[] = [];
      for (let n = 0; n < REQUESTS_PER_CLIENT; n++) {
        const roll = random();
        if (roll < 0.36 || live.size === 0) {
          // A third of the creates carry a category: posted Groceries spend is routed, the others not.
          const categorised = random() < 0.35;
          const categoryIndex = categorised ? Math.floor(random() * CATEGORIES.length) : -1;
          const category = CATEGORIES[categoryIndex] ?? null;
          const pending = random() < 0.3;
          const cents = BigInt(Math.floor(random() * 20_000) - 12_000 || 1);
          const date = dateOf(Math.floor(random() * 90), Math.floor(random() * 1_440));
          const reply = await api.call(transactionRoutes.create, {
            bank_account: accountId,
            amount: money(cents),
            transaction_date: date,
            transaction_type: "ach",
            pending,
            raw_description: `client ${index} #${n}`,
            ...(category ? { category: categoryIds[categoryIndex] } : {}),
          });
          const target = routedTo(pending, category);
          const what = target === unallocatedId ? "create" : "routed create";
          record(`${what}${category ? ` in ${category}` : ""}`, reply, [201]);
          if (reply.statusCode !== 201) continue;
          const created = reply.json();
          const answered = allocationTotals(created.allocations ?? []);
          if (!sameTotals(answered, new Map([[target, cents]])))
            failures.push(`${what} ${created.id} allocated ${describeTotals(answered)}, expected ${target}`);
          live.set(created.id, { amount: cents, pending, date, createdIn: target });
        } else if (roll < 0.48) {
          const id = anyLive() as string;
          const reply = await api.call(transactionRoutes.delete, { id });
          record(`delete ${id}`, reply, [204, 404]);
          if (reply.statusCode === 204) {
            deleted.add(id);
            live.delete(id);
          }
        } else if (roll < 0.62) {
          const id = anyLive() as string;
          const row = live.get(id);
          const magnitude = row ? (row.amount < 0n ? -row.amount : row.amount) : 1n;
          // One or two budgets, Unallocated among the candidates.
          const parts = random() < 0.5 ? 1 : 2;
          const body: Record<string, string> = {};
          for (let p = 0; p < parts; p++) {
            const budget = budgetIds[Math.floor(random() * budgetIds.length)] as string;
            body[budget] = money(BigInt(Math.floor((random() * Number(magnitude)) / parts)) || 1n);
          }
          const sent = ++clock;
          const reply = await api.call(transactionRoutes.split, { id, splits: body });
          const answered = ++clock;
          // 400: the transaction is pending (or its amount changed under us); 404: deleted meanwhile.
          record(`split ${id}`, reply, [200, 400, 404]);
          if (reply.statusCode === 200)
            splits.set(id, [
              ...(splits.get(id) ?? []),
              { sent, answered, allocations: allocationTotals(reply.json()) },
            ]);
        } else if (roll < 0.76) {
          const src = Math.floor(random() * budgetIds.length);
          const dst = (src + 1 + Math.floor(random() * (budgetIds.length - 1))) % budgetIds.length;
          const body = {
            bank_account: accountId,
            amount: money(BigInt(1 + Math.floor(random() * 5_000))),
            src_budget: budgetIds[src] as string,
            dst_budget: budgetIds[dst] as string,
            effective_date: dateOf(Math.floor(random() * 90)),
          };
          const reply = await api.call(internalTransactionRoutes.create, body);
          record("transfer", reply, [201]);
          if (reply.statusCode === 201)
            transfers.set(reply.json().id, {
              amount: body.amount,
              src: body.src_budget,
              dst: body.dst_budget,
            });
        } else if (roll < 0.9) {
          const pendingIds = [...live.entries()].filter(([, row]) => row.pending).map(([id]) => id);
          const id = pendingIds[Math.floor(random() * pendingIds.length)] ?? (anyLive() as string);
          const row = live.get(id);
          if (!row) continue;
          const finalAmount = row.amount - (row.amount < 0n ? 100n : -100n);
          const input = { id, posted_date: row.date, amount: money(finalAmount) };
          // The same resolution twice at once: it must be credited once.
          const replies = await Promise.all([
            api.call(transactionRoutes.resolvePending, input),
            api.call(transactionRoutes.resolvePending, input),
          ]);
          for (const reply of replies) record(`resolve ${id}`, reply, [200, 400, 404]);
          const resolved = replies.filter((reply) => reply.statusCode === 200).length;
          if (resolved > 1) failures.push(`resolve ${id} answered 200 twice`);
          if (resolved === 1 && !deleted.has(id))
            live.set(id, { ...row, pending: false, amount: finalAmount });
        } else if (mine.length === 0 || random() < 0.4) {
          // Budget lifecycle: this client's own budgets, made empty, then archived and/or deleted.
          const reply = await api.call(budgetRoutes.create, {
            bank_account: accountId,
            name: `Client ${index} budget ${n}`,
            budget_type: "G",
            funding_type: "F",
            target_balance: "100.00",
            funding_amount: "5.00",
          });
          record("budget", reply, [201]);
          if (reply.statusCode === 201) {
            const { id } = reply.json();
            mine.push({ id, archived: false });
            madeBudgets.set(id, "active");
          }
        } else {
          const at = Math.floor(random() * mine.length);
          const budget = mine[at] as { id: string; archived: boolean };
          if (budget.archived || random() < 0.5) {
            const reply = await api.call(budgetRoutes.delete, { id: budget.id });
            record(`deleteBudget ${budget.id}`, reply, [204]);
            if (reply.statusCode === 204) {
              mine.splice(at, 1);
              madeBudgets.set(budget.id, "deleted");
            }
          } else {
            const reply = await api.call(budgetRoutes.archive, { id: budget.id });
            record(`archive ${budget.id}`, reply, [200]);
            if (reply.statusCode === 200) {
              budget.archived = true;
              madeBudgets.set(budget.id, "archived");
            }
          }
        }
      }
    }

    await Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(index)));

    expect(failures).toEqual([]);
    for (const kind of [
      "create",
      "routed",
      "delete",
      "split",
      "transfer",
      "resolve",
      "budget",
      "archive",
      "deleteBudget",
    ])
      expect(succeeded[kind], `${kind}: ${JSON.stringify(succeeded)}`).toBeGreaterThan(0);
    expect(await verifyLedger(t.db, accountId)).toEqual([]);
    // Acknowledged creates present (with their acknowledged amounts), acknowledged deletes gone.
    expect(await balanceProblems(t.db, accountId, OPENING, live)).toEqual([]);
    const rows = await t.db
      .select({ id: transactions.id })
      .from(transactions)
      .where(eq(transactions.bankAccountId, accountId));
    const stored = new Set(rows.map((row) => row.id));
    expect([...deleted].filter((id) => stored.has(id))).toEqual([]);
    expect(live.size).toBeGreaterThan(0);

    // Every acknowledged transfer is stored as acknowledged, and nothing else is (the budgets made
    // during the run held nothing when archived, so archiving recorded no transfer).
    const storedTransfers = await t.db
      .select()
      .from(internalTransactions)
      .where(eq(internalTransactions.bankAccountId, accountId));
    expect(
      Object.fromEntries(
        storedTransfers.map((it) => [it.id, { amount: it.amount, src: it.srcBudgetId, dst: it.dstBudgetId }]),
      ),
    ).toEqual(Object.fromEntries(transfers));

    // Each live transaction's allocations: as its create put them when no split was acknowledged;
    // otherwise the answer of an acknowledged split that may have been the last one (no other
    // acknowledged split on it was sent after that one was answered).
    const allocationRows = await t.db
      .select()
      .from(transactionAllocations)
      .where(eq(transactionAllocations.bankAccountId, accountId));
    const allocationProblems: string[] = [];
    for (const [id, row] of live) {
      const now = allocationTotals(
        allocationRows
          .filter((a) => a.transactionId === id)
          .map((a) => ({ budget: a.budgetId, amount: a.amount })),
      );
      const acks = splits.get(id) ?? [];
      const candidates = acks.length
        ? acks.filter((ack) => !acks.some((other) => other.sent > ack.answered)).map((ack) => ack.allocations)
        : [new Map([[row.createdIn, row.amount]])];
      if (!candidates.some((candidate) => sameTotals(candidate, now)))
        allocationProblems.push(
          `${id}: ${describeTotals(now)}, expected one of ${candidates.map(describeTotals).join(" | ")}`,
        );
    }
    expect(allocationProblems).toEqual([]);
    expect(splits.size).toBeGreaterThan(0);

    // The budgets made during the run: deleted ones gone, the others empty and as last left.
    const madeRows = await t.db.select().from(budgets).where(eq(budgets.bankAccountId, accountId));
    const made = new Map(madeRows.filter((b) => madeBudgets.has(b.id)).map((b) => [b.id, b]));
    for (const [id, state] of madeBudgets) {
      const row = made.get(id);
      if (state === "deleted") expect(row, id).toBeUndefined();
      else
        expect({ archived: row?.archived, balance: row?.balance }, id).toEqual({
          archived: state === "archived",
          balance: "0.00",
        });
    }
  });
});
