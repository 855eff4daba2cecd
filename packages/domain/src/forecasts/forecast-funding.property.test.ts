import { toMoney } from "@allot/contract/money";
import { describe, expect, it } from "vitest";
import { forecast, item } from "../../test/testing/forecast-test-kit";
import {
  BOTH,
  capped,
  goalD,
  goalF,
  money,
  recurring,
  unallocated,
} from "../../test/testing/funding-plan-test-kit";
import type { FundingBudget } from "../funding/funding-budget";
import { type OpenOccurrence, planFunding } from "../funding/funding-plan";
import { addDays } from "../funding/schedule-events";

/** A seeded generator: the same accounts on every run. */
function generator(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  const below = (n: number) => Math.floor(next() * n);
  return {
    chance: (p: number) => next() < p,
    below,
    pick: <T>(options: readonly T[]): T => options[below(options.length)] as T,
    amount: (max: number) => (below(max * 100) / 100).toFixed(2),
  };
}

/** An account of a few budgets of every kind, some paused, lagging, ahead, complete or archived, some with an open occurrence. */
function randomAccount(random: ReturnType<typeof generator>) {
  const today = addDays("2027-01-01", random.below(60));
  const until = addDays(today, 1 + random.below(random.chance(0.2) ? 500 : 60));
  const budgets: FundingBudget[] = [unallocated(random.amount(800))];
  const open: OpenOccurrence[] = [];
  const count = 1 + random.below(5);
  for (let index = 0; index < count; index++) {
    const id = `B${index}`;
    const kind = random.pick(["F", "D", "C", "R"] as const);
    const processedThrough = random.chance(0.5) ? null : addDays("2027-01-01", random.below(60));
    const paused = random.chance(0.2);
    if (kind === "F")
      budgets.push(
        goalF(id, random.amount(80), random.amount(500), {
          balance: random.amount(50),
          processedThrough,
          paused,
          complete: random.chance(0.1),
          archived: random.chance(0.1),
        }),
      );
    else if (kind === "D")
      budgets.push(
        goalD(id, random.amount(800), addDays("2027-01-01", random.below(200)), { processedThrough, paused }),
      );
    else if (kind === "C")
      budgets.push(
        capped(id, random.amount(80), random.amount(300), {
          balance: random.amount(100),
          processedThrough,
          paused,
        }),
      );
    else {
      const [parent, fillup] = recurring(id, random.amount(400));
      parent.paused = paused;
      budgets.push(parent, fillup);
    }
    if (kind !== "R" && processedThrough && random.chance(0.3))
      open.push({
        id: `open-${id}`,
        budgetId: id,
        scheduledDate: processedThrough,
        amount: toMoney("50"),
        movedAmount: toMoney(random.amount(40)),
      });
  }
  const targets = budgets.filter((b) => !b.isUnallocated && !b.archived).map((b) => b.id);
  const items = random.chance(0.5)
    ? []
    : Array.from({ length: random.below(12) }, () =>
        item(
          addDays(today, random.below(90)),
          `${random.chance(0.5) ? "-" : ""}${random.amount(300)}`,
          random.chance(0.3) ? (random.pick(targets) ?? null) : null,
        ),
      ).filter((entry) => entry.date <= until);
  return { budgets, open, items, today, until, interval: random.pick(["day", "week", "month"] as const) };
}

const copies = (budgets: FundingBudget[]) => budgets.map((b) => ({ ...b }));

describe("forecastFunding: seeded random accounts", () => {
  it("given 300 random accounts, when each is forecast, then every figure agrees with its recomputation, and without items with planFunding's plan", () => {
    const random = generator(20_270_101);
    for (let round = 0; round < 300; round++) {
      // Given
      const account = randomAccount(random);
      // When: forecast() recomputes every figure from the inputs and the events.
      const figures = forecast({ ...account, budgets: copies(account.budgets) });
      // Then
      if (account.items.length > 0) continue;
      const engine = copies(account.budgets);
      const plan = planFunding({ budgets: engine, open: account.open, horizon: account.until, kinds: BOTH });
      expect(figures.events.map((e) => [e.date, e.budget, e.kind, e.status.toUpperCase()])).toEqual(
        plan.occurrences.map((o) => [o.scheduledDate, o.budgetId, o.kind, o.status]),
      );
      const ends = new Map(engine.map((b) => [b.id, money(b.balance)]));
      for (const row of figures.budgets) expect(row.end).toBe(ends.get(row.budget));
      expect(figures.unallocated.end).toBe(ends.get("Unallocated"));
    }
  });
});
