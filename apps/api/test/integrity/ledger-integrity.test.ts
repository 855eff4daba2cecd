import { budgetRoutes } from "@allot/contract/budgets/routes";
import { internalTransactionRoutes } from "@allot/contract/internal-transactions/routes";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { verifyLedger } from "@allot/domain/ledger/verify-ledger";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { aBank, anAccount } from "../testing/fixtures";
import { type TestUser, useTestApp } from "../testing/test-app";
import { accountFingerprint, globalCategoryIds } from "./ledger-client";
import {
  allocationTotals,
  balanceProblems,
  cents,
  describeTotals,
  expectedAllocationBudget,
  loadBudgets,
  money,
  sameTotals,
  splitAllocations,
} from "./ledger-model";
import { CATEGORIES, dateOf, type LiveTransaction, OPENING } from "./ledger-scenario";

/*
 * Random sequences of every kind of balance change, driven through HTTP on one account. After each
 * step: no 500; a refused step (4xx) changed nothing; the status is the one the spec predicts where
 * the spec decides it; the ledger verifies from scratch; the account's balances follow the
 * acknowledged transactions and each budget's balance follows its allocations and transfers; every
 * transaction's allocations are the ones the model predicts (auto_spend routing on create, the split
 * rules, the Unallocated share on resolve).
 */

const LISTABLE = [0, 1, 2];

type Step =
  | { kind: "create"; amount: number; pending: boolean; day: number; minute: number; category: number | null }
  | { kind: "delete"; pick: number }
  | { kind: "resolve"; pick: number; change: "none" | "same" | "flip"; amount: number; days: number }
  | {
      kind: "split";
      pick: number;
      /** Pick among posted rows only (a pending one is refused whatever the split). */
      postedOnly: boolean;
      /** Unallocated named explicitly with this amount, besides the parts (which may name it too). */
      unallocated: number | null;
      parts: { pick: number; amount: number }[];
    }
  | { kind: "transfer"; src: number; dst: number; amount: number; day: number | null }
  | { kind: "budget"; type: "G" | "C" | "R"; autoSpend: number[] }
  | { kind: "archive"; pick: number }
  | { kind: "deleteBudget"; pick: number };

const pick = fc.nat({ max: 1_000 });
const amount = fc.integer({ min: 1, max: 30_000 });
// Small shares as often as large ones, so that splits fit within the transaction often enough.
const splitAmount = fc.oneof(fc.integer({ min: 1, max: 1_000 }), fc.integer({ min: 1, max: 12_000 }));
const createAmount = fc.integer({ min: -20_000, max: 20_000 }).filter((n) => n !== 0);
const budgetType = fc.constantFrom("G" as const, "C" as const, "R" as const);
const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("create" as const),
      amount: createAmount,
      pending: fc.boolean(),
      day: fc.nat({ max: 89 }),
      minute: fc.nat({ max: 1_439 }),
      category: fc.constant(null),
    }),
  },
  {
    // With a category, mostly posted: pending spend is never routed.
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("create" as const),
      amount: createAmount,
      pending: fc.constantFrom(false, false, false, true),
      day: fc.nat({ max: 89 }),
      minute: fc.nat({ max: 1_439 }),
      category: fc.integer({ min: 0, max: CATEGORIES.length - 1 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("delete" as const), pick }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("resolve" as const),
      pick,
      change: fc.constantFrom("none" as const, "same" as const, "flip" as const),
      amount,
      days: fc.nat({ max: 5 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("split" as const),
      pick,
      postedOnly: fc.boolean(),
      unallocated: fc.option(splitAmount, { nil: null, freq: 2 }),
      parts: fc.array(fc.record({ pick, amount: splitAmount }), { maxLength: 3 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("transfer" as const),
      src: pick,
      dst: pick,
      amount,
      day: fc.option(fc.nat({ max: 89 }), { nil: null }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("budget" as const),
      type: budgetType,
      autoSpend: fc.subarray(LISTABLE),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("archive" as const), pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("deleteBudget" as const), pick }) },
);
/**
 * Each sequence opens with two budgets listing categories so that every routing case is there from
 * the start: each lists one category of its own (routed to it) and one they share (routed nowhere);
 * which category plays which part is random. Then 18 to 28 random steps (20 to 30 in all), which
 * archive and delete budgets and add more listings.
 */
const openingArbitrary: fc.Arbitrary<Step[]> = fc
  .tuple(fc.shuffledSubarray(LISTABLE, { minLength: 3, maxLength: 3 }), budgetType, budgetType)
  .map(([[own1, own2, shared], type1, type2]) => [
    { kind: "budget", type: type1, autoSpend: [own1 as number, shared as number] },
    { kind: "budget", type: type2, autoSpend: [own2 as number, shared as number] },
  ]);
const sequenceArbitrary: fc.Arbitrary<Step[]> = fc
  .tuple(openingArbitrary, fc.array(stepArbitrary, { minLength: 18, maxLength: 28 }))
  .map(([opening, steps]) => [...opening, ...steps]);

const choose = <T>(items: T[], index: number): T | undefined =>
  items.length ? items[index % items.length] : undefined;

describe.each(testEngines())("ledger integrity under random operations (%s)", (engine) => {
  const t = useTestApp(engine);
  let user: TestUser;
  let bankId: string;
  let categoryIds: string[];

  beforeAll(async () => {
    user = await t.user();
    bankId = (await aBank(t, { name: "Property Bank", currency: "EUR" })).id;
    categoryIds = await globalCategoryIds(t.as(user), CATEGORIES);
  });

  /** Statuses seen per kind of step, over every sequence. */
  const outcomes = new Map<string, Set<number>>();
  /** Acknowledged changes every run must reach, counted over every sequence. */
  const coverage = { routed: 0, ambiguous: 0, unroutedCategory: 0, splitNamingUnallocated: 0 };

  /** One sequence on a fresh account; returns when every step has been checked. */
  async function runSequence(steps: Step[]) {
    const as = t.as(user);
    const account = await anAccount(t, user, { name: "Property", bank: bankId, balance: money(OPENING) });
    const accountId = account.id;
    const unallocatedId = account.unallocated_budget;
    const live = new Map<string, LiveTransaction>();
    const gone: string[] = [];
    const goneBudgets: string[] = [];
    const log: string[] = [];

    for (const [index, step] of steps.entries()) {
      const budgetMap = await loadBudgets(t.db, accountId);
      const allBudgets = [...budgetMap.values()];
      const before = await accountFingerprint(t.db, accountId);
      // The status the spec decides for this step, or null where it leaves the choice open.
      let expected: number | number[] | null = null;
      let reply: { statusCode: number; body: string };
      let label: string;
      // Disagreements between an acknowledged reply and the model.
      const wrong: string[] = [];

      switch (step.kind) {
        case "create": {
          const category = step.category === null ? null : (CATEGORIES[step.category] as string);
          const target = expectedAllocationBudget(allBudgets, unallocatedId, {
            pending: step.pending,
            category,
          });
          label = `create ${money(step.amount)}${step.pending ? " pending" : ""} on day ${step.day}${category ? ` in ${category} (to ${target === unallocatedId ? "Unallocated" : target})` : ""}`;
          expected = 201;
          const date = dateOf(step.day, step.minute);
          const created = await as.call(transactionRoutes.create, {
            bank_account: accountId,
            amount: money(step.amount),
            transaction_date: date,
            transaction_type: "ach",
            pending: step.pending,
            raw_description: `step ${index}`,
            ...(step.category === null ? {} : { category: categoryIds[step.category] }),
          });
          reply = created;
          if (created.statusCode === 201) {
            const body = created.json();
            const allocations = new Map([[target, BigInt(step.amount)]]);
            const answered = allocationTotals(body.allocations ?? []);
            if (!sameTotals(answered, allocations) || body.allocations.length !== 1)
              wrong.push(
                `created with allocations ${describeTotals(answered)}, expected ${describeTotals(allocations)}`,
              );
            live.set(body.id, {
              amount: BigInt(step.amount),
              pending: step.pending,
              date,
              allocations,
            });
            if (category && !step.pending) {
              const listing = allBudgets.filter(
                (b) => !b.archived && !b.unallocated && b.autoSpend.includes(category),
              ).length;
              if (target !== unallocatedId) coverage.routed++;
              else if (listing > 1) coverage.ambiguous++;
              else coverage.unroutedCategory++;
            }
          }
          break;
        }
        case "delete": {
          const id = choose([...live.keys(), ...gone], step.pick);
          if (!id) continue;
          label = `delete transaction ${id}`;
          expected = live.has(id) ? 204 : 404;
          reply = await as.call(transactionRoutes.delete, { id });
          if (reply.statusCode === 204) {
            live.delete(id);
            gone.push(id);
          }
          break;
        }
        case "resolve": {
          const id = choose([...live.keys()], step.pick);
          const row = id ? live.get(id) : undefined;
          if (!id || !row) continue;
          const sign = row.amount < 0n ? -1n : 1n;
          const newAmount =
            step.change === "none" ? null : (step.change === "same" ? sign : -sign) * BigInt(step.amount);
          label = `resolve ${id} (${money(row.amount)}${row.pending ? " pending" : ""}) to ${newAmount === null ? "same" : money(newAmount)}`;
          expected = !row.pending || step.change === "flip" ? 400 : 200;
          reply = await as.call(transactionRoutes.resolvePending, {
            id,
            posted_date: new Date(Date.parse(row.date) + step.days * 86_400_000).toISOString(),
            ...(newAmount === null ? {} : { amount: money(newAmount) }),
          });
          if (reply.statusCode === 200) {
            // A pending row is never routed nor split: its one allocation, Unallocated's, takes the final amount.
            const final = newAmount ?? row.amount;
            live.set(id, {
              ...row,
              pending: false,
              amount: final,
              allocations: new Map([[unallocatedId, final]]),
            });
          }
          break;
        }
        case "split": {
          const posted = [...live.keys()].filter((key) => !live.get(key)?.pending);
          const id = choose(step.postedOnly && posted.length ? posted : [...live.keys()], step.pick);
          const row = id ? live.get(id) : undefined;
          if (!id || !row) continue;
          // Unallocated is a target like any other: naming it declares part of its share.
          const targets = [...allBudgets.map((b) => b.id), ...goneBudgets];
          const splits: Record<string, string> = {};
          if (step.unallocated !== null) splits[unallocatedId] = money(step.unallocated);
          for (const part of step.parts) {
            const budget = choose(targets, part.pick);
            if (budget) splits[budget] = money(part.amount);
          }
          const chosen = Object.keys(splits).map((b) => budgetMap.get(b));
          const total = Object.values(splits).reduce((sum, v) => sum + cents(v), 0n);
          const magnitude = row.amount < 0n ? -row.amount : row.amount;
          label = `split ${id} (${money(row.amount)}${row.pending ? " pending" : ""}) ${JSON.stringify(splits)}`;
          if (row.pending || chosen.some((b) => !b) || total > magnitude) expected = 400;
          // Splits into a fill-up goal or an archived budget: the spec does not say.
          else if (chosen.every((b) => b && b.type !== "A" && !b.archived)) expected = 200;
          const split = await as.call(transactionRoutes.split, { id, splits });
          reply = split;
          if (split.statusCode === 200) {
            const requested = new Map(
              Object.entries(splits).map(([budget, value]) => [budget, cents(value)]),
            );
            const allocations = splitAllocations(row.amount, unallocatedId, requested);
            const body = split.json();
            const answered = allocationTotals(Array.isArray(body) ? body : []);
            if (!sameTotals(answered, allocations))
              wrong.push(
                `split answered ${describeTotals(answered)}, expected ${describeTotals(allocations)}`,
              );
            live.set(id, { ...row, allocations });
            if (requested.has(unallocatedId)) coverage.splitNamingUnallocated++;
          }
          break;
        }
        case "transfer": {
          const pool = [...allBudgets.map((b) => b.id), ...goneBudgets];
          const src = choose(pool, step.src);
          const dst = choose(pool, step.dst);
          if (!src || !dst) continue;
          const [s, d] = [budgetMap.get(src), budgetMap.get(dst)];
          label = `transfer ${money(step.amount)} ${src} -> ${dst}`;
          expected = !s || !d || src === dst || s.archived || d.archived ? 400 : 201;
          reply = await as.call(internalTransactionRoutes.create, {
            bank_account: accountId,
            amount: money(step.amount),
            src_budget: src,
            dst_budget: dst,
            ...(step.day === null ? {} : { effective_date: dateOf(step.day) }),
          });
          break;
        }
        case "budget": {
          const autoSpend = step.autoSpend.map((i) => CATEGORIES[i] as string);
          label = `create budget ${step.type}${autoSpend.length ? ` listing ${autoSpend.join(", ")}` : ""}`;
          expected = 201;
          const fields =
            step.type === "R"
              ? { funding_type: "D" as const, recurrence_schedule: "RRULE:FREQ=MONTHLY" }
              : { funding_type: "F" as const, funding_amount: "10.00" };
          const budget = await as.call(budgetRoutes.create, {
            bank_account: accountId,
            name: `Budget ${index}`,
            budget_type: step.type,
            target_balance: "150.00",
            auto_spend: autoSpend,
            ...fields,
          });
          reply = budget;
          if (
            budget.statusCode === 201 &&
            JSON.stringify(budget.json().auto_spend) !== JSON.stringify(autoSpend)
          )
            wrong.push(`auto_spend stored as ${JSON.stringify(budget.json().auto_spend)}`);
          break;
        }
        case "archive": {
          const budget = choose(allBudgets, step.pick);
          if (!budget) continue;
          label = `archive ${budget.type} ${budget.id}${budget.archived ? " (archived)" : ""}`;
          if (budget.unallocated) expected = 403;
          else if (budget.archived) expected = 400;
          else if (budget.type !== "A") expected = 200;
          reply = await as.call(budgetRoutes.archive, { id: budget.id });
          break;
        }
        case "deleteBudget": {
          const id = choose([...allBudgets.map((b) => b.id), ...goneBudgets], step.pick);
          if (!id) continue;
          const budget = budgetMap.get(id);
          const fillup = budget?.fillup ? budgetMap.get(budget.fillup) : undefined;
          label = `delete budget ${budget?.type ?? "gone"} ${id}`;
          if (!budget) expected = 404;
          else if (budget.unallocated) expected = 403;
          else if (budget.hasAllocations || fillup?.hasAllocations) expected = 400;
          else if (budget.type !== "A") expected = 204;
          reply = await as.call(budgetRoutes.delete, { id });
          if (reply.statusCode === 204) {
            goneBudgets.push(id);
            if (budget?.fillup) goneBudgets.push(budget.fillup);
          }
          break;
        }
      }

      log.push(`${index}: ${label} -> ${reply.statusCode}`);
      outcomes.set(step.kind, new Set([...(outcomes.get(step.kind) ?? []), reply.statusCode]));
      const context = `${log.join("\n")}\n${reply.body}`;
      expect(reply.statusCode, context).toBeLessThan(500);
      if (expected !== null) expect([expected].flat(), context).toContain(reply.statusCode);
      expect(wrong, context).toEqual([]);
      if (reply.statusCode >= 400) expect(await accountFingerprint(t.db, accountId), context).toBe(before);
      expect(await verifyLedger(t.db, accountId), context).toEqual([]);
      expect(await balanceProblems(t.db, accountId, OPENING, live), context).toEqual([]);
    }
  }

  it("keeps balances, snapshots and acknowledged writes consistent", { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(sequenceArbitrary, runSequence),
      // No shrinking: each failure report already carries the whole step log.
      { numRuns: 15, endOnFailure: true },
    );
    // The runs must have reached every kind of change, not only its refusals.
    for (const kind of [
      "create",
      "delete",
      "resolve",
      "split",
      "transfer",
      "budget",
      "archive",
      "deleteBudget",
    ]) {
      const statuses = [...(outcomes.get(kind) ?? [])];
      expect(
        statuses.some((status) => status < 300),
        `${kind}: ${statuses}`,
      ).toBe(true);
    }
    // ...and auto_spend routing a posted create (to the one budget listing its category; nowhere when
    // two budgets list it or none does), and a split naming Unallocated.
    for (const [what, count] of Object.entries(coverage))
      expect(count, `${what}: ${JSON.stringify(coverage)}`).toBeGreaterThan(0);
  });
});
