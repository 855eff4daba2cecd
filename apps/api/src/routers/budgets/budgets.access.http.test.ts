import { budgetRoutes } from "@allot/contract/budgets/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { budgetsKit, goalFields, MISSING } from "../../../test/testing/budgets-test-kit";
import { aBudget, anAccount } from "../../../test/testing/fixtures";
import { useTestApp } from "../../../test/testing/test-app";
import type { RouteCaller } from "../../../test/testing/test-client";

describe.each(testEngines())("who may call the budget endpoints (%s)", (engine) => {
  const t = useTestApp(engine);
  const { row, transfer, expectLedgerOk } = budgetsKit(t);

  /** Every verb on one budget, each labelled for the failure message. */
  const everyVerb = (caller: RouteCaller, id: string, name: string) =>
    [
      ["GET", () => caller.call(budgetRoutes.get, { id })],
      ["PUT", () => caller.call(budgetRoutes.replace, { id, name, funding_type: "F", target_balance: "1" })],
      ["PATCH", () => caller.call(budgetRoutes.update, { id, name })],
      ["DELETE", () => caller.call(budgetRoutes.delete, { id })],
      ["POST archive", () => caller.call(budgetRoutes.archive, { id })],
    ] as const;

  it("is 404 on every verb of someone else's budget, which stays unchanged", async () => {
    const owner = await t.user();
    const stranger = await t.user();
    const account = await anAccount(t, owner);
    const goal = await aBudget(t, owner, account);
    await transfer(owner, account, account.unallocated_budget, goal.id, "10.00");
    for (const id of [goal.id, account.unallocated_budget, MISSING]) {
      for (const [verb, send] of everyVerb(t.as(stranger), id, "Mine")) {
        const response = await send();
        expect(response.statusCode, `${verb} ${id}`).toBe(404);
      }
    }
    expect(await row(goal.id)).toMatchObject({ name: "Holiday", archived: false, balance: "10.00" });
    expect((await t.as(owner).call(budgetRoutes.get, { id: "not-a-uuid" })).statusCode).toBeOneOf([400, 404]);
    await expectLedgerOk(account);
  });

  it("answers every endpoint with 401 without credentials", async () => {
    const owner = await t.user();
    const account = await anAccount(t, owner);
    const goal = await aBudget(t, owner, account);
    const requests = [
      ["GET list", () => t.anonymous.call(budgetRoutes.list)],
      [
        "POST create",
        () => t.anonymous.call(budgetRoutes.create, { name: "x", bank_account: account.id, ...goalFields }),
      ],
      ...everyVerb(t.anonymous, goal.id, "x"),
    ] as const;
    for (const [verb, send] of requests) {
      const response = await send();
      expect(response.statusCode, verb).toBe(401);
    }
    expect(await row(goal.id)).toMatchObject({ name: "Holiday", archived: false });
  });

  it("takes API keys", async () => {
    const user = await t.user();
    const account = await anAccount(t, user);
    const response = await t
      .as(await t.apiKey(user))
      .call(budgetRoutes.create, { name: "By key", bank_account: account.id, ...goalFields });
    expect(response.statusCode, response.body).toBe(201);
  });
});
