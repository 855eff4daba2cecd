import { forecastRoutes } from "@allot/contract/forecasts/routes";
import { budgets } from "@allot/db/schema/budgets";
import { testEngines } from "@allot/db/testing/test-databases";
import { addDays } from "@allot/domain/funding/schedule-events";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { aBudget, anAccount } from "../../../test/testing/fixtures";
import { useTestApp } from "../../../test/testing/test-app";

/* Every refusal is a 400 on the field that narrows it (docs/spec/extensions.md §8), never a 500. */
describe.each(testEngines())("forecast refusals (%s)", (engine) => {
  const t = useTestApp(engine);

  async function world() {
    const owner = await t.user();
    const account = await anAccount(t, owner);
    const goal = await aBudget(t, owner, account, { funding_schedule: "RRULE:FREQ=WEEKLY" });
    const today = (await t.as(owner).call(forecastRoutes.get, { id: account.id })).json().from;
    return { as: t.as(owner), owner, account, goal, today };
  }

  it("refuses an until not after today or more than 1,096 days ahead, on until", async () => {
    const { as, account, today } = await world();
    for (const until of [today, addDays(today, -1), addDays(today, 1_097)]) {
      const response = await as.call(forecastRoutes.get, { id: account.id, until });
      expect(response.statusCode, until).toBe(400);
      expect(Object.keys(response.json<Record<string, string[]>>())).toEqual(["until"]);
    }
    expect(
      (await as.call(forecastRoutes.get, { id: account.id, until: addDays(today, 1_096) })).statusCode,
    ).toBe(200);
    const word = await as.callUnchecked(forecastRoutes.get, { id: account.id, interval: "year" });
    expect(word.statusCode).toBe(400);
    expect(Object.keys(word.json<Record<string, string[]>>())).toEqual(["interval"]);
  });

  it("names each invalid what-if by its path", async () => {
    const { as, account, goal, today } = await world();
    const cases: [Record<string, unknown>, string][] = [
      [{ items: [{ description: "x", amount: "1.234", date: today }] }, "items.0.amount"],
      [{ items: [{ description: "x", amount: "1.00" }] }, "items.0.date"],
      [
        { items: [{ description: "x", amount: "1.00", date: today, schedule: "RRULE:FREQ=DAILY" }] },
        "items.0.date",
      ],
      [{ items: [{ description: "x", amount: "1.00", date: addDays(today, -1) }] }, "items.0.date"],
      [
        {
          items: [
            { description: "ok", amount: "1", date: today },
            { description: "x", amount: "1", schedule: "RRULE:FREQ=HOURLY" },
          ],
        },
        "items.1.schedule",
      ],
      [{ items: [{ description: "x", amount: "1.00", date: today, budget: "new-1" }] }, "items.0.budget"],
      [{ items: [{ description: "", amount: "1.00", date: today }] }, "items.0.description"],
      [
        { budgets: [{ name: "F", budget_type: "A", funding_type: "D", target_balance: "10" }] },
        "budgets.0.budget_type",
      ],
      [
        { budgets: [{ name: "R", budget_type: "R", funding_type: "D", target_balance: "10" }] },
        "budgets.0.recurrence_schedule",
      ],
      [
        {
          budgets: [
            {
              name: "G",
              budget_type: "G",
              funding_type: "F",
              target_balance: "10",
              funding_amount: "5",
              funding_schedule: "FREQ=MINUTELY",
            },
          ],
        },
        "budgets.0.funding_schedule",
      ],
      [{ changes: [{ budget: account.unallocated_budget, name: "Mine" }] }, "changes.0.name"],
      [{ changes: [{ budget: goal.id, target_balance: "-5" }] }, "changes.0.target_balance"],
      [{ changes: [{ budget: goal.id, budget_type: "C" }] }, "changes.0.budget_type"],
      [{ changes: [{ budget: "b7d3e1f2-4a6c-4b8e-9d0f-1a2b3c4d5e6f" }] }, "changes.0.budget"],
    ];
    for (const [body, path] of cases) {
      const response = await as.callUnchecked(forecastRoutes.whatIf, { id: account.id, ...body });
      expect(response.statusCode, `${path}: ${response.body}`).toBe(400);
      expect(Object.keys(response.json<Record<string, string[]>>()), JSON.stringify(body)).toEqual([path]);
    }
  });

  it("refuses more than 100 items, budgets or changes, on the list", async () => {
    const { as, account, goal, today } = await world();
    const lists = {
      items: Array.from({ length: 101 }, () => ({ description: "x", amount: "1", date: today })),
      budgets: Array.from({ length: 101 }, () => ({
        name: "G",
        budget_type: "G",
        funding_type: "F",
        target_balance: "1",
        funding_amount: "1",
      })),
      changes: Array.from({ length: 101 }, () => ({ budget: goal.id })),
    };
    for (const [name, list] of Object.entries(lists)) {
      const response = await as.callUnchecked(forecastRoutes.whatIf, { id: account.id, [name]: list });
      expect(response.statusCode, name).toBe(400);
      expect(Object.keys(response.json<Record<string, string[]>>())).toEqual([name]);
      const fits = await as.callUnchecked(forecastRoutes.whatIf, { id: account.id, [name]: list.slice(1) });
      expect(fits.statusCode, `${name}: ${fits.body}`).toBe(200);
    }
  });

  it("answers a hostile what-if schedule at once, and refuses an answer too large on the field that narrows it", async () => {
    const { as, account, today } = await world();
    // Never fires (30 February), which rrule alone would look for until the year 9999.
    const never = await as.call(forecastRoutes.whatIf, {
      id: account.id,
      until: addDays(today, 1_096),
      items: [{ description: "x", amount: "1", schedule: "RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30" }],
    });
    expect(never.statusCode, never.body).toBe(200);
    expect(never.json().events.filter((e) => e.kind === "item")).toEqual([]);

    // 100 daily items for three years: more events than one answer holds.
    const daily = Array.from({ length: 100 }, (_, n) => ({
      description: `d${n}`,
      amount: "1",
      schedule: "RRULE:FREQ=DAILY",
    }));
    const many = await as.call(forecastRoutes.whatIf, {
      id: account.id,
      until: addDays(today, 1_096),
      items: daily,
    });
    expect(many.statusCode).toBe(400);
    expect(Object.keys(many.json<Record<string, string[]>>())).toEqual(["until"]);
  });

  it("refuses a daily series too large for the account's budgets, on interval", async () => {
    const { as, owner, account, today } = await world();
    const extra = Array.from(
      { length: 100 },
      (_, n) =>
        ({
          name: `B${n}`,
          budget_type: "G",
          funding_type: "F",
          target_balance: "1",
          funding_amount: "1",
        }) as const,
    );
    const wide = await as.call(forecastRoutes.whatIf, {
      id: account.id,
      until: addDays(today, 1_096),
      interval: "day",
      budgets: extra,
    });
    expect(wide.statusCode, wide.body).toBe(400);
    expect(Object.keys(wide.json<Record<string, string[]>>())).toEqual(["interval"]);
    const monthly = await as.call(forecastRoutes.whatIf, {
      id: account.id,
      until: addDays(today, 1_096),
      budgets: extra,
    });
    expect(monthly.statusCode, monthly.body).toBe(200);
    // An archived budget takes no part, as a change or as an item's budget.
    const archived = await aBudget(t, owner, account, { name: "Old" });
    await t.db.update(budgets).set({ archived: true }).where(eq(budgets.id, archived.id));
    const change = await as.call(forecastRoutes.whatIf, {
      id: account.id,
      changes: [{ budget: archived.id, paused: true }],
    });
    expect(Object.keys(change.json<Record<string, string[]>>())).toEqual(["changes.0.budget"]);
    const item = await as.call(forecastRoutes.whatIf, {
      id: account.id,
      items: [{ description: "x", amount: "1", date: today, budget: archived.id }],
    });
    expect(Object.keys(item.json<Record<string, string[]>>())).toEqual(["items.0.budget"]);
  });
});
