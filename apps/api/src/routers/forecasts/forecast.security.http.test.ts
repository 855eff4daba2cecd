import { forecastRoutes } from "@allot/contract/forecasts/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { aBudget, anAccount } from "../../../test/testing/fixtures";
import { useTestApp } from "../../../test/testing/test-app";

/* Another person's account and budgets read as missing; nobody reads without credentials. */
describe.each(testEngines())("forecast access (%s)", (engine) => {
  const t = useTestApp(engine);

  it("is 404 on another user's account and 401 without credentials", async () => {
    const owner = await t.user();
    const stranger = await t.user();
    const account = await anAccount(t, owner);
    for (const caller of [t.as(stranger)]) {
      expect((await caller.call(forecastRoutes.get, { id: account.id })).statusCode).toBe(404);
      expect((await caller.call(forecastRoutes.whatIf, { id: account.id })).statusCode).toBe(404);
    }
    expect((await t.anonymous.call(forecastRoutes.get, { id: account.id })).statusCode).toBe(401);
    expect((await t.anonymous.call(forecastRoutes.whatIf, { id: account.id })).statusCode).toBe(401);
  });

  it("treats another user's budget in a what-if as no budget of this account", async () => {
    const owner = await t.user();
    const stranger = await t.user();
    const account = await anAccount(t, owner);
    const theirs = await aBudget(t, stranger, await anAccount(t, stranger));
    const as = t.as(owner);
    const today = (await as.call(forecastRoutes.get, { id: account.id })).json().from;
    const change = await as.call(forecastRoutes.whatIf, {
      id: account.id,
      changes: [{ budget: theirs.id, paused: true }],
    });
    const item = await as.call(forecastRoutes.whatIf, {
      id: account.id,
      items: [{ description: "x", amount: "1", date: today, budget: theirs.id }],
    });
    const unknown = { changes: ["No budget of this account has this id."] };
    expect(change.json()).toEqual({ "changes.0.budget": unknown.changes });
    expect(item.json()).toEqual({ "items.0.budget": unknown.changes });
  });
});
