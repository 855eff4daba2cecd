import { BUDGET_TYPE } from "@allot/contract/budgets/budget-kinds";
import type { Database } from "@allot/db/create-database";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { budgets } from "@allot/db/schema/budgets";
import { internalTransactions } from "@allot/db/schema/internal-transactions";
import { transactionAllocations } from "@allot/db/schema/transaction-allocations";
import { transactions } from "@allot/db/schema/transactions";
import { eq } from "drizzle-orm";

/** numeric(14,2) text as integer cents: test arithmetic without floats. */
export const cents = (amount: string): bigint => {
  const [whole = "0", fraction = ""] = amount.replace("-", "").split(".");
  const value = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, "0").slice(0, 2));
  return amount.startsWith("-") ? -value : value;
};

/** Integer cents as a wire amount ("-12.05"). */
export const money = (value: number | bigint): string => {
  const n = BigInt(value);
  const abs = n < 0n ? -n : n;
  return `${n < 0n ? "-" : ""}${abs / 100n}.${String(abs % 100n).padStart(2, "0")}`;
};

export interface BudgetState {
  id: string;
  type: string;
  unallocated: boolean;
  archived: boolean;
  fillup: string | null;
  /** For a fill-up goal: the Recurring budget it belongs to. */
  parent: string | null;
  hasAllocations: boolean;
  /** Category full names, canonical as stored. */
  autoSpend: string[];
}

/** The account's budgets as stored, with whether any allocation still points at each. */
export async function loadBudgets(db: Database, accountId: string): Promise<Map<string, BudgetState>> {
  const rows = await db.select().from(budgets).where(eq(budgets.bankAccountId, accountId));
  const allocated = new Set(
    (
      await db
        .select({ budget: transactionAllocations.budgetId })
        .from(transactionAllocations)
        .where(eq(transactionAllocations.bankAccountId, accountId))
    ).map((r) => r.budget),
  );
  const parents = new Map(rows.filter((r) => r.fillupGoalId).map((r) => [r.fillupGoalId as string, r.id]));
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        type: r.budgetType,
        unallocated: r.isUnallocated,
        archived: r.archived,
        fillup: r.fillupGoalId,
        parent: parents.get(r.id) ?? null,
        hasAllocations: allocated.has(r.id),
        autoSpend: r.autoSpend,
      },
    ]),
  );
}

/**
 * Where a new transaction's allocation goes (spec: "spend in a listed category is auto-routed to this
 * budget"): a posted transaction whose category exactly one active budget of the account (not
 * Unallocated) lists in auto_spend goes to that budget; anything else — pending, uncategorised, no
 * budget or several listing the category — to Unallocated.
 */
export function expectedAllocationBudget(
  budgets: Iterable<BudgetState>,
  unallocatedId: string,
  transaction: { pending: boolean; category: string | null },
): string {
  if (transaction.pending || transaction.category === null) return unallocatedId;
  const wanted = transaction.category.toLowerCase();
  const listing = [...budgets].filter(
    (b) => !b.archived && !b.unallocated && b.autoSpend.some((name) => name.toLowerCase() === wanted),
  );
  return listing.length === 1 ? (listing[0] as BudgetState).id : unallocatedId;
}

/**
 * A transaction's allocations (budget → signed cents) after a split, by the spec's split rules: each
 * named budget takes its amount with the transaction's sign, and Unallocated takes the rest — what
 * it was given by name plus whatever was left undeclared. Unallocated keeps no zero allocation
 * beside others (nor does it need one), but keeps the whole amount when nothing else takes a share.
 * `splits` holds positive magnitudes and must already have passed the total check.
 */
export function splitAllocations(
  amount: bigint,
  unallocatedId: string,
  splits: Map<string, bigint>,
): Map<string, bigint> {
  const result = new Map<string, bigint>();
  let taken = 0n;
  for (const [budgetId, magnitude] of splits) {
    if (budgetId === unallocatedId) continue;
    const signed = amount < 0n ? -magnitude : magnitude;
    result.set(budgetId, signed);
    taken += signed;
  }
  const remainder = amount - taken;
  if (remainder !== 0n || result.size === 0) result.set(unallocatedId, remainder);
  return result;
}

/** Allocation rows (budget, amount text) as budget → total cents; for comparing with a model. */
export function allocationTotals(rows: { budget: string | null; amount: string }[]): Map<string, bigint> {
  const totals = new Map<string, bigint>();
  for (const row of rows) {
    const key = row.budget ?? "(no budget)";
    totals.set(key, (totals.get(key) ?? 0n) + cents(row.amount));
  }
  return totals;
}

export const describeTotals = (totals: Map<string, bigint>) =>
  JSON.stringify(
    Object.fromEntries([...totals].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, money(v)])),
  );

/** Whether two budget → cents maps hold the same entries. */
export const sameTotals = (a: Map<string, bigint>, b: Map<string, bigint>) =>
  describeTotals(a) === describeTotals(b);

/** A live transaction as the client knows it; `allocations` (budget → cents) when it predicts them. */
export interface ModelTransaction {
  amount: bigint;
  pending: boolean;
  allocations?: Map<string, bigint>;
}

/**
 * Checks beyond verifyLedger, from the client's own record of acknowledged writes: the account's
 * balances are the opening balance plus its live transactions, and each budget's balance is its
 * opening balance (Unallocated holds the account's) plus its allocations and transfers, and a goal's
 * funded_amount is the net of its transfers. Where the client predicts a transaction's allocations,
 * the stored ones must be exactly those (budget by budget).
 */
export async function balanceProblems(
  db: Database,
  accountId: string,
  opening: bigint,
  live: Map<string, ModelTransaction>,
): Promise<string[]> {
  const problems: string[] = [];
  const [account] = await db.select().from(bankAccounts).where(eq(bankAccounts.id, accountId));
  if (!account) return ["account missing"];
  let available = opening;
  let posted = opening;
  for (const row of live.values()) {
    available += row.amount;
    if (!row.pending) posted += row.amount;
  }
  if (cents(account.availableBalance) !== available)
    problems.push(`available_balance ${account.availableBalance}, expected ${money(available)}`);
  if (cents(account.postedBalance) !== posted)
    problems.push(`posted_balance ${account.postedBalance}, expected ${money(posted)}`);

  const stored = await db
    .select({ id: transactions.id })
    .from(transactions)
    .where(eq(transactions.bankAccountId, accountId));
  const storedIds = new Set(stored.map((r) => r.id));
  for (const id of live.keys())
    if (!storedIds.has(id)) problems.push(`acknowledged transaction ${id} missing`);
  for (const id of storedIds)
    if (!live.has(id)) problems.push(`transaction ${id} present but not acknowledged`);

  const budgetRows = await db.select().from(budgets).where(eq(budgets.bankAccountId, accountId));
  const expected = new Map(budgetRows.map((b) => [b.id, b.isUnallocated ? opening : 0n]));
  const funded = new Map(budgetRows.map((b) => [b.id, 0n]));
  const add = (id: string | null, delta: bigint, map = expected) => {
    if (id && map.has(id)) map.set(id, (map.get(id) ?? 0n) + delta);
  };
  const allocations = await db
    .select()
    .from(transactionAllocations)
    .where(eq(transactionAllocations.bankAccountId, accountId));
  for (const a of allocations) add(a.budgetId, cents(a.amount));
  const byTransaction = new Map<string, { budget: string | null; amount: string }[]>();
  for (const a of allocations)
    byTransaction.set(a.transactionId, [
      ...(byTransaction.get(a.transactionId) ?? []),
      { budget: a.budgetId, amount: a.amount },
    ]);
  for (const [id, row] of live) {
    if (!row.allocations) continue;
    const stored = allocationTotals(byTransaction.get(id) ?? []);
    if (!sameTotals(stored, row.allocations))
      problems.push(
        `transaction ${id} allocations ${describeTotals(stored)}, expected ${describeTotals(row.allocations)}`,
      );
  }
  const transfers = await db
    .select()
    .from(internalTransactions)
    .where(eq(internalTransactions.bankAccountId, accountId));
  for (const it of transfers) {
    add(it.srcBudgetId, -cents(it.amount));
    add(it.dstBudgetId, cents(it.amount));
    add(it.srcBudgetId, -cents(it.amount), funded);
    add(it.dstBudgetId, cents(it.amount), funded);
  }
  for (const b of budgetRows) {
    const want = expected.get(b.id) ?? 0n;
    if (cents(b.balance) !== want)
      problems.push(`budget ${b.name} balance ${b.balance}, its events give ${money(want)}`);
    // Goals and fill-up goals: funded_amount is the net of their transfers.
    const net = funded.get(b.id) ?? 0n;
    if (
      (b.budgetType === BUDGET_TYPE.goal || b.budgetType === BUDGET_TYPE.fillup) &&
      !b.isUnallocated &&
      cents(b.fundedAmount) !== net
    )
      problems.push(`budget ${b.name} funded_amount ${b.fundedAmount}, its transfers give ${money(net)}`);
  }
  return problems;
}
