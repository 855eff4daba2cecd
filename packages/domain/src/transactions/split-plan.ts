import { addToTotal, formatMoney, type Money, sumMoney, toMoney, ZERO } from "@allot/contract/money";

export interface ExistingAllocation {
  id: string;
  budgetId: string | null;
  amount: string;
}

export interface SplitPlan {
  /** Allocations that stay, with their new amount (ids kept). */
  updates: { id: string; amount: Money }[];
  inserts: { budgetId: string; amount: Money }[];
  deletes: string[];
  /** Per budget: new total minus old total. */
  deltas: Map<string, Money>;
}

export const POSITIVE = "Split amounts must be positive.";

/**
 * Why a requested split cannot be applied, or null. `requested` holds positive magnitudes (the use
 * case refuses any other value, POSITIVE, before the keys are folded).
 */
export function splitProblem(amount: Money, requested: Map<string, Money>): string | null {
  const total = sumMoney(requested.values());
  if (total.gt(amount.abs())) {
    return `The splits add up to ${formatMoney(total)}, more than the transaction's ${formatMoney(amount.abs())}.`;
  }
  return null;
}

/**
 * Reconciles a transaction's allocations with a split: each requested budget gets its amount with
 * the transaction's sign, the remainder goes to Unallocated (no allocation when it is zero, unless
 * no other budget has one). An existing allocation whose budget stays is updated in place (the
 * oldest one per budget; extra ones are deleted), the others are deleted, and budgets without one
 * get a new allocation.
 */
export function planSplit(
  amount: Money,
  unallocatedId: string,
  requested: Map<string, Money>,
  existing: ExistingAllocation[],
): SplitPlan {
  const signed = (value: Money) => (amount.lt(0) ? value.neg() : value);
  const desired = new Map<string, Money>();
  let declared = ZERO;
  for (const [budgetId, value] of requested) {
    desired.set(budgetId, signed(value));
    declared = declared.plus(signed(value));
  }
  const remainder = amount.minus(declared).plus(desired.get(unallocatedId) ?? ZERO);
  // A transaction always keeps one allocation: a zero remainder stays on Unallocated when no other
  // budget takes a share (a $0.00 row split with {}).
  const othersTakeShare = [...desired.keys()].some((budgetId) => budgetId !== unallocatedId);
  if (remainder.eq(0) && othersTakeShare) desired.delete(unallocatedId);
  else desired.set(unallocatedId, remainder);

  const deltas = new Map<string, Money>();
  const plan: SplitPlan = { updates: [], inserts: [], deletes: [], deltas };
  const claimed = new Set<string>();
  for (const allocation of existing) {
    const { budgetId } = allocation;
    if (budgetId) addToTotal(deltas, budgetId, toMoney(allocation.amount).neg());
    const target = budgetId ? desired.get(budgetId) : undefined;
    if (budgetId && target && !claimed.has(budgetId)) {
      claimed.add(budgetId);
      if (!target.eq(allocation.amount)) plan.updates.push({ id: allocation.id, amount: target });
    } else {
      plan.deletes.push(allocation.id);
    }
  }
  for (const [budgetId, value] of desired) {
    addToTotal(deltas, budgetId, value);
    if (!claimed.has(budgetId)) plan.inserts.push({ budgetId, amount: value });
  }
  for (const [budgetId, delta] of deltas) if (delta.eq(0)) deltas.delete(budgetId);
  return plan;
}
