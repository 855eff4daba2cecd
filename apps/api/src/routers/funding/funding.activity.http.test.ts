import { apiKeyRoutes } from "@allot/contract/api-keys/routes";
import { fundingRoutes } from "@allot/contract/funding/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { localDate } from "@allot/domain/calendar/local-days";
import { beforeAll, describe, expect, it } from "vitest";
import { activityCount, activityOf } from "../../../test/testing/activity";
import { aBudget, anAccount } from "../../../test/testing/fixtures";
import { type TestUser, useTestApp } from "../../../test/testing/test-app";

// Schedules anchored relative to today (the owner keeps UTC days), as in funding.http.test.ts.
const today = localDate(new Date(), "UTC");
const day = (n: number) => {
  const at = new Date(`${today}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + n);
  return at.toISOString().slice(0, 10);
};
const weekly = `DTSTART:${day(1).replaceAll("-", "")}\nRRULE:FREQ=WEEKLY`;

/**
 * docs/spec/extensions.md §3, decision 0031: a run that moved money is one `funding.completed`, or
 * `funding.underfunded` when it left an occurrence PARTIAL; a run that moved nothing records nothing.
 */
describe.each(testEngines())("funding runs in the activity trail (%s)", (engine) => {
  const t = useTestApp(engine);
  let owner: TestUser;

  beforeAll(async () => {
    owner = await t.user({ timeZone: "UTC" });
  });

  const fundingEvents = (accountId: string) =>
    activityOf(t, owner, accountId, ["funding.completed", "funding.underfunded"]);
  const eventCount = (accountId: string) => activityCount(t, owner, accountId);

  it("records a run that funded every occurrence as funding.completed, with the Goals it completed", async () => {
    const account = await anAccount(t, owner, { balance: "1000.00" });
    const holiday = await aBudget(t, owner, account, { name: "Holiday", funding_schedule: weekly });
    const bike = await aBudget(t, owner, account, {
      name: "Bike",
      target_balance: "100",
      funding_amount: "100",
      funding_schedule: weekly,
    });

    const response = await t.as(owner).call(fundingRoutes.run, { id: account.id, as_of: day(8) });
    expect(response.statusCode, response.body).toBe(200);
    // Holiday 50.00 on days 1 and 8; Bike its 100.00 on day 1, complete from then on.
    expect(response.json()).toMatchObject({ transfers: 3, occurrences_completed: 3, occurrences_partial: 0 });

    expect(await fundingEvents(account.id)).toEqual([
      expect.objectContaining({
        type: "funding.completed",
        bank_account: account.id,
        actor: { kind: "user", username: owner.username, api_key: null },
        request_id: response.headers["x-request-id"],
        summary: `${owner.username} funded 2 budgets in 3 transfers`,
        data: {
          transfers: 3,
          occurrences_completed: 3,
          occurrences_partial: 0,
          funded_budgets: [holiday.id, bike.id],
          completed_budgets: [bike.id],
        },
      }),
    ]);

    // Everything due is done: the next run moves nothing and records nothing.
    const again = await t.as(owner).call(fundingRoutes.run, { id: account.id, as_of: day(8) });
    expect(again.json()).toMatchObject({ transfers: 0 });
    expect(await fundingEvents(account.id)).toHaveLength(1);
  });

  it("records a run that left an occurrence PARTIAL as funding.underfunded, under the API key", async () => {
    const account = await anAccount(t, owner, { balance: "30.00" });
    const car = await aBudget(t, owner, account, { name: "Car", funding_schedule: weekly });
    const key = await t.as(owner).call(apiKeyRoutes.create, { name: "funder" });
    expect(key.statusCode, key.body).toBe(201);
    const { uuid, name, prefix, key: secret } = key.json();

    const response = await t
      .as(`Api-Key ${secret}`)
      .call(fundingRoutes.run, { id: account.id, as_of: day(1) });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ transfers: 1, occurrences_completed: 0, occurrences_partial: 1 });

    const events = await fundingEvents(account.id);
    expect(events).toEqual([
      expect.objectContaining({
        type: "funding.underfunded",
        actor: { kind: "api_key", username: owner.username, api_key: { uuid, name, prefix } },
        request_id: response.headers["x-request-id"],
        summary: `${owner.username} funded 1 budget in 1 transfer, leaving 1 occurrence underfunded`,
        data: {
          transfers: 1,
          occurrences_completed: 0,
          occurrences_partial: 1,
          funded_budgets: [car.id],
          completed_budgets: [],
        },
      }),
    ]);

    // Unallocated is empty: the occurrence stays PARTIAL, nothing moves, nothing is recorded.
    const idle = await t.as(owner).call(fundingRoutes.run, { id: account.id, as_of: day(1) });
    expect(idle.json()).toMatchObject({ transfers: 0, occurrences_partial: 1 });
    expect(await fundingEvents(account.id)).toHaveLength(1);
  });

  it("records nothing for a refused run", async () => {
    const account = await anAccount(t, owner);
    await aBudget(t, owner, account, { funding_schedule: weekly });
    const before = await eventCount(account.id);

    const tooFar = await t.as(owner).call(fundingRoutes.run, { id: account.id, as_of: "9999-12-31" });
    expect(tooFar.statusCode, tooFar.body).toBe(400);
    const stranger = await t.user();
    const foreign = await t.as(stranger).call(fundingRoutes.run, { id: account.id, as_of: day(1) });
    expect(foreign.statusCode, foreign.body).toBe(404);

    expect(await eventCount(account.id)).toBe(before);
    expect(await fundingEvents(account.id)).toEqual([]);
  });
});
