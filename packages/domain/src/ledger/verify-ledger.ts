import { addToTotal, formatMoney, type Money, sumMoney, toMoney, ZERO } from "@allot/contract/money";
import type { Database } from "@allot/db/create-database";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { budgets } from "@allot/db/schema/budgets";
import { internalTransactions } from "@allot/db/schema/internal-transactions";
import { transactionAllocations } from "@allot/db/schema/transaction-allocations";
import { transactions } from "@allot/db/schema/transactions";
import { type AnyColumn, eq, getTableColumns, sql } from "drizzle-orm";

type Key = [bigint, bigint, bigint, string, string];

interface Event {
  key: Key;
  budgetId: string;
  delta: Money;
  check: (balanceAfter: Money) => string | null;
}

const cmp = (a: Key, b: Key) => {
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return (a[i] as bigint | string) < (b[i] as bigint | string) ? -1 : 1;
  }
  return 0;
};
// Timestamps at the database's microsecond precision (a JS Date would round to milliseconds).
const micros = (column: AnyColumn) => sql<string>`(extract(epoch from ${column}) * 1000000)::bigint::text`;
const us = (text: string) => BigInt(text);

/**
 * Recomputes an account's ledger from scratch, in plain TypeScript, and lists every way the stored
 * state disagrees: the invariant (available balance = sum of budget balances; each allocation set
 * sums to its transaction), each budget balance against its events, and every running-balance
 * snapshot. Empty means consistent. For tests (property and concurrency tests use it).
 * (A budget's opening balance is not an event, so budget balances are checked through snapshots.)
 */
export async function verifyLedger(db: Database, accountId: string): Promise<string[]> {
  const problems: string[] = [];
  const [account] = await db.select().from(bankAccounts).where(eq(bankAccounts.id, accountId));
  if (!account) return [`account ${accountId} missing`];
  const budgetRows = await db.select().from(budgets).where(eq(budgets.bankAccountId, accountId));
  const txRows = await db
    .select({
      ...getTableColumns(transactions),
      atUs: micros(transactions.transactionDate),
      createdUs: micros(transactions.createdAt),
    })
    .from(transactions)
    .where(eq(transactions.bankAccountId, accountId));
  const allocRows = await db
    .select({
      ...getTableColumns(transactionAllocations),
      createdUs: micros(transactionAllocations.createdAt),
    })
    .from(transactionAllocations)
    .where(eq(transactionAllocations.bankAccountId, accountId));
  const transferRows = await db
    .select({
      ...getTableColumns(internalTransactions),
      atUs: micros(internalTransactions.effectiveDate),
      createdUs: micros(internalTransactions.createdAt),
    })
    .from(internalTransactions)
    .where(eq(internalTransactions.bankAccountId, accountId));

  if (account.transactionCount !== txRows.length) {
    problems.push(`transaction_count ${account.transactionCount} != ${txRows.length} transactions`);
  }
  const budgetSum = sumMoney(budgetRows.map((b) => b.balance));
  if (!budgetSum.eq(account.availableBalance)) {
    problems.push(
      `available_balance ${account.availableBalance} != sum of budgets ${formatMoney(budgetSum)}`,
    );
  }

  // Transactions, oldest first: each snapshot is the balance after it.
  const txs = [...txRows].sort((a, b) =>
    cmp([us(a.atUs), us(a.createdUs), 0n, a.id, ""], [us(b.atUs), us(b.createdUs), 0n, b.id, ""]),
  );
  let postedAfter = toMoney(account.postedBalance);
  let availableAfter = toMoney(account.availableBalance);
  for (const t of [...txs].reverse()) {
    if (!postedAfter.eq(t.postedBalanceSnapshot) || !availableAfter.eq(t.availableBalanceSnapshot)) {
      problems.push(
        `transaction ${t.id} snapshots ${t.postedBalanceSnapshot}/${t.availableBalanceSnapshot}, expected ${formatMoney(postedAfter)}/${formatMoney(availableAfter)}`,
      );
    }
    if (!t.pending) postedAfter = postedAfter.minus(t.amount);
    availableAfter = availableAfter.minus(t.amount);
  }

  const byTransaction = new Map(txRows.map((t) => [t.id, t]));
  const allocated = new Map<string, Money>();
  const events: Event[] = [];
  for (const a of allocRows) {
    const t = byTransaction.get(a.transactionId);
    if (!t) continue;
    addToTotal(allocated, t.id, a.amount);
    if (!a.budgetId) continue;
    events.push({
      key: [us(t.atUs), us(t.createdUs), us(a.createdUs), a.id, "a"],
      budgetId: a.budgetId,
      delta: toMoney(a.amount),
      check: (after) =>
        after.eq(a.budgetBalance)
          ? null
          : `allocation ${a.id} budget_balance ${a.budgetBalance}, expected ${formatMoney(after)}`,
    });
  }
  for (const t of txRows) {
    const sum = allocated.get(t.id) ?? ZERO;
    if (!sum.eq(t.amount))
      problems.push(`transaction ${t.id} amount ${t.amount} != allocations ${formatMoney(sum)}`);
  }
  for (const it of transferRows) {
    const key = (kind: string): Key => [us(it.atUs), us(it.createdUs), us(it.createdUs), it.id, kind];
    events.push({
      key: key("s"),
      budgetId: it.srcBudgetId,
      delta: toMoney(it.amount).neg(),
      check: (after) =>
        after.eq(it.srcBudgetBalance)
          ? null
          : `transfer ${it.id} src_budget_balance ${it.srcBudgetBalance}, expected ${formatMoney(after)}`,
    });
    events.push({
      key: key("d"),
      budgetId: it.dstBudgetId,
      delta: toMoney(it.amount),
      check: (after) =>
        after.eq(it.dstBudgetBalance)
          ? null
          : `transfer ${it.id} dst_budget_balance ${it.dstBudgetBalance}, expected ${formatMoney(after)}`,
    });
  }
  for (const budget of budgetRows) {
    const own = events.filter((e) => e.budgetId === budget.id).sort((a, b) => cmp(b.key, a.key));
    let after = toMoney(budget.balance);
    for (const event of own) {
      const problem = event.check(after);
      if (problem) problems.push(problem);
      after = after.minus(event.delta);
    }
  }
  return problems;
}
