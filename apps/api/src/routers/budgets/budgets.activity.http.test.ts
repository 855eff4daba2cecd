import type { ActivityEventType } from "@allot/contract/activity/activity-event-types";
import { apiKeyRoutes } from "@allot/contract/api-keys/routes";
import { budgetRoutes } from "@allot/contract/budgets/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { activityOf, sessionActor } from "../../../test/testing/activity";
import { budgetsKit, MISSING, recurringFields } from "../../../test/testing/budgets-test-kit";
import { aBudget, anAccount, fillupOf } from "../../../test/testing/fixtures";
import { type TestUser, useTestApp } from "../../../test/testing/test-app";

describe.each(testEngines())("budgets over HTTP: the activity trail (%s)", (engine) => {
  const t = useTestApp(engine);
  const { transfer, allocate } = budgetsKit(t);

  const events = (owner: TestUser, accountId: string) => activityOf(t, owner, accountId);

  /** The newest event, which must be of `type`. */
  async function latest(owner: TestUser, accountId: string, type: ActivityEventType) {
    const [event] = await events(owner, accountId);
    expect(event?.type).toBe(type);
    return event;
  }

  const userActor = sessionActor;

  it("records budget.created with the budget's main fields, one event for a Recurring budget and its fill-up", async () => {
    const user = await t.user();
    const account = await anAccount(t, user);
    const response = await t.as(user).call(budgetRoutes.create, {
      name: "Holiday",
      bank_account: account.id,
      budget_type: "G",
      funding_type: "F",
      target_balance: "500",
      funding_amount: "50",
    });
    expect(response.statusCode, response.body).toBe(201);
    const goal = response.json();
    expect(await latest(user, account.id, "budget.created")).toEqual({
      id: expect.any(String),
      type: "budget.created",
      occurred_at: expect.any(String),
      bank_account: account.id,
      actor: userActor(user),
      request_id: response.headers["x-request-id"],
      summary: `${user.username} created the budget Holiday`,
      data: {
        budget: goal.id,
        name: "Holiday",
        budget_type: "G",
        funding_type: "F",
        target_balance: "500.00",
        funding_amount: "50.00",
        target_date: null,
        paused: false,
        fillup_goal: null,
      },
    });

    const before = (await events(user, account.id)).length;
    const rent = await aBudget(t, user, account, { name: "Rent", ...recurringFields });
    const trail = await events(user, account.id);
    expect(trail).toHaveLength(before + 1);
    expect(trail[0]).toMatchObject({
      type: "budget.created",
      summary: `${user.username} created the budget Rent`,
      data: { budget: rent.id, budget_type: "R", target_balance: "120.00", fillup_goal: fillupOf(rent) },
    });
  });

  it("records budget.updated for PATCH and PUT with the fields sent, a no-op PATCH too", async () => {
    const user = await t.user();
    const account = await anAccount(t, user);
    const goal = await aBudget(t, user, account);

    const patch = await t.as(user).call(budgetRoutes.update, { id: goal.id, name: "Trip", memo: "summer" });
    expect(patch.statusCode, patch.body).toBe(200);
    expect(await latest(user, account.id, "budget.updated")).toMatchObject({
      bank_account: account.id,
      actor: userActor(user),
      request_id: patch.headers["x-request-id"],
      summary: `${user.username} updated the budget Trip (formerly Holiday)`,
      data: { budget: goal.id, changes: ["name", "memo"] },
    });

    const put = await t.as(user).call(budgetRoutes.replace, {
      id: goal.id,
      name: "Trip",
      bank_account: account.id,
      budget_type: "G",
      funding_type: "F",
      target_balance: "600",
      funding_amount: "60",
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(await latest(user, account.id, "budget.updated")).toMatchObject({
      request_id: put.headers["x-request-id"],
      summary: `${user.username} updated the budget Trip`,
      data: { budget: goal.id, changes: ["name", "funding_type", "target_balance", "funding_amount"] },
    });

    // The caller asked; the trail says so even though nothing changed.
    const same = await t.as(user).call(budgetRoutes.update, { id: goal.id, memo: "summer" });
    expect(same.statusCode, same.body).toBe(200);
    expect(await latest(user, account.id, "budget.updated")).toMatchObject({
      request_id: same.headers["x-request-id"],
      summary: `${user.username} updated the budget Trip`,
      data: { budget: goal.id, changes: ["memo"] },
    });
  });

  it("counts a name that reads like a number as changed when its text changes (1.0 → 1.00)", async () => {
    const user = await t.user();
    const account = await anAccount(t, user);
    const odd = await aBudget(t, user, account, { name: "1.0" });

    const renamed = await t.as(user).call(budgetRoutes.update, { id: odd.id, paused: true, name: "1.00" });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().name).toBe("1.00");
    // Two fields changed, so an update, not a pause (latest checks the newest event's type).
    expect(await latest(user, account.id, "budget.updated")).toMatchObject({ data: { budget: odd.id } });
  });

  it("records budget.paused and budget.resumed when paused is the only change", async () => {
    const user = await t.user();
    const account = await anAccount(t, user);
    const rent = await aBudget(t, user, account, { name: "Rent", ...recurringFields });

    const pause = await t.as(user).call(budgetRoutes.update, { id: rent.id, paused: true, name: "Rent" });
    expect(pause.statusCode, pause.body).toBe(200);
    expect(await latest(user, account.id, "budget.paused")).toMatchObject({
      bank_account: account.id,
      actor: userActor(user),
      request_id: pause.headers["x-request-id"],
      summary: `${user.username} paused the budget Rent`,
      data: { budget: rent.id, changes: ["name", "paused"] },
    });

    // Pausing a paused budget changes nothing: an update, not a second pause.
    const again = await t.as(user).call(budgetRoutes.update, { id: rent.id, paused: true });
    expect(again.statusCode, again.body).toBe(200);
    expect(await latest(user, account.id, "budget.updated")).toMatchObject({
      request_id: again.headers["x-request-id"],
      data: { budget: rent.id, changes: ["paused"] },
    });

    const resume = await t.as(user).call(budgetRoutes.update, { id: rent.id, paused: false });
    expect(resume.statusCode, resume.body).toBe(200);
    expect(await latest(user, account.id, "budget.resumed")).toMatchObject({
      request_id: resume.headers["x-request-id"],
      summary: `${user.username} resumed the budget Rent`,
      data: { budget: rent.id, changes: ["paused"], warnings: resume.json().warnings },
    });

    // Pausing along with another change is an update.
    const both = await t.as(user).call(budgetRoutes.update, { id: rent.id, paused: true, memo: "later" });
    expect(both.statusCode, both.body).toBe(200);
    expect(await latest(user, account.id, "budget.updated")).toMatchObject({
      request_id: both.headers["x-request-id"],
      data: { budget: rent.id, changes: ["paused", "memo"] },
    });
  });

  it("records budget.completed when a lowered target completes a Goal, and latches it", async () => {
    const user = await t.user();
    const account = await anAccount(t, user);
    const goal = await aBudget(t, user, account);
    await transfer(user, account, account.unallocated_budget, goal.id, "300.00");

    const lowered = await t.as(user).call(budgetRoutes.update, { id: goal.id, target_balance: "250" });
    expect(lowered.statusCode, lowered.body).toBe(200);
    expect(lowered.json()).toMatchObject({ complete: true, target_balance: "250.00" });
    expect(await latest(user, account.id, "budget.completed")).toEqual({
      id: expect.any(String),
      type: "budget.completed",
      occurred_at: expect.any(String),
      bank_account: account.id,
      actor: userActor(user),
      request_id: lowered.headers["x-request-id"],
      summary: `${user.username} completed the Goal Holiday by setting its target to 250.00 USD`,
      data: {
        budget: goal.id,
        changes: ["target_balance"],
        target_balance: "250.00",
        funded_amount: "300.00",
      },
    });

    // Complete stays latched: raising the target again is an update.
    const raised = await t.as(user).call(budgetRoutes.update, { id: goal.id, target_balance: "400" });
    expect(raised.json()).toMatchObject({ complete: true, target_balance: "400.00" });
    expect(await latest(user, account.id, "budget.updated")).toMatchObject({
      request_id: raised.headers["x-request-id"],
      data: { budget: goal.id, changes: ["target_balance"] },
    });

    // A target still above what the Goal is funded does not complete it.
    const other = await aBudget(t, user, account, { name: "Car" });
    await transfer(user, account, account.unallocated_budget, other.id, "100.00");
    const short = await t.as(user).call(budgetRoutes.update, { id: other.id, target_balance: "100.01" });
    expect(short.json()).toMatchObject({ complete: false });
    expect(await latest(user, account.id, "budget.updated")).toMatchObject({
      request_id: short.headers["x-request-id"],
    });
  });

  it("records budget.archived with the amount swept to Unallocated, with an API key as the actor", async () => {
    const user = await t.user();
    const account = await anAccount(t, user, { balance: "500.00" });
    const created = await t.as(user).call(apiKeyRoutes.create, { name: "script" });
    expect(created.statusCode, created.body).toBe(201);
    const key = created.json();
    const asKey = t.as(`Api-Key ${key.key}`);
    const apiKeyActor = {
      kind: "api_key",
      username: user.username,
      api_key: { uuid: key.uuid, name: "script", prefix: key.prefix },
    };

    const rent = await aBudget(t, user, account, { name: "Rent", ...recurringFields });
    await transfer(user, account, account.unallocated_budget, rent.id, "80.00");
    await transfer(user, account, account.unallocated_budget, fillupOf(rent), "35.25");
    const archived = await asKey.call(budgetRoutes.archive, { id: rent.id });
    expect(archived.statusCode, archived.body).toBe(200);
    expect(await latest(user, account.id, "budget.archived")).toEqual({
      id: expect.any(String),
      type: "budget.archived",
      occurred_at: expect.any(String),
      bank_account: account.id,
      actor: apiKeyActor,
      request_id: archived.headers["x-request-id"],
      summary: `${user.username} archived the budget Rent and moved 115.25 USD to Unallocated`,
      data: {
        budget: rent.id,
        fillup_goal: fillupOf(rent),
        unallocated_budget: account.unallocated_budget,
        swept_to_unallocated: "115.25",
      },
    });

    const overdrawn = await aBudget(t, user, account, { name: "Fun" });
    await allocate(user, account, overdrawn.id, "-30.00");
    const covered = await asKey.call(budgetRoutes.archive, { id: overdrawn.id });
    expect(covered.statusCode, covered.body).toBe(200);
    expect(await latest(user, account.id, "budget.archived")).toMatchObject({
      actor: apiKeyActor,
      request_id: covered.headers["x-request-id"],
      summary: `${user.username} archived the budget Fun and covered its 30.00 USD overdraft from Unallocated`,
      data: { budget: overdrawn.id, fillup_goal: null, swept_to_unallocated: "-30.00" },
    });

    const empty = await aBudget(t, user, account, { name: "Empty" });
    const plain = await t.as(user).call(budgetRoutes.archive, { id: empty.id });
    expect(await latest(user, account.id, "budget.archived")).toMatchObject({
      actor: userActor(user),
      request_id: plain.headers["x-request-id"],
      summary: `${user.username} archived the budget Empty`,
      data: { budget: empty.id, swept_to_unallocated: "0.00" },
    });
  });

  it("records budget.deleted with what went back", async () => {
    const user = await t.user();
    const account = await anAccount(t, user);
    const rent = await aBudget(t, user, account, { name: "Rent", ...recurringFields });
    await transfer(user, account, account.unallocated_budget, rent.id, "40.00");
    await transfer(user, account, account.unallocated_budget, fillupOf(rent), "10.00");

    const response = await t.as(user).call(budgetRoutes.delete, { id: rent.id });
    expect(response.statusCode, response.body).toBe(204);
    expect(await latest(user, account.id, "budget.deleted")).toEqual({
      id: expect.any(String),
      type: "budget.deleted",
      occurred_at: expect.any(String),
      bank_account: account.id,
      actor: userActor(user),
      request_id: response.headers["x-request-id"],
      summary: `${user.username} deleted the budget Rent`,
      data: {
        budget: rent.id,
        name: "Rent",
        fillup_goal: fillupOf(rent),
        unallocated_budget: account.unallocated_budget,
        // Both transfers came from Unallocated: undone, so nothing is left to move.
        moved_to_unallocated: "0.00",
        transfers_undone: 2,
      },
    });
  });

  it("records nothing for a refused request (400, 403, 404)", async () => {
    const owner = await t.user();
    const stranger = await t.user();
    const account = await anAccount(t, owner);
    const goal = await aBudget(t, owner, account);
    const before = await events(owner, account.id);

    const refusals = [
      await t.as(owner).callUnchecked(budgetRoutes.create, {
        name: "Fill",
        bank_account: account.id,
        budget_type: "A",
        funding_type: "D",
        target_balance: "10",
      }),
      await t.as(owner).call(budgetRoutes.update, { id: account.unallocated_budget, name: "Spare" }),
      await t.as(owner).call(budgetRoutes.update, { id: goal.id, budget_type: "C" }),
      await t.as(owner).call(budgetRoutes.archive, { id: account.unallocated_budget }),
      await t.as(owner).call(budgetRoutes.delete, { id: MISSING }),
      await t.as(stranger).call(budgetRoutes.update, { id: goal.id, paused: true }),
      await t.as(stranger).call(budgetRoutes.archive, { id: goal.id }),
      await t.as(stranger).call(budgetRoutes.delete, { id: goal.id }),
    ];
    expect(refusals.map((response) => response.statusCode)).toEqual([400, 400, 400, 403, 404, 404, 404, 404]);
    expect(await events(owner, account.id)).toEqual(before);
  });
});
