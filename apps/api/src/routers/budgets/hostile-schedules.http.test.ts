import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { budgetRoutes } from "@allot/contract/budgets/routes";
import { fundingRoutes } from "@allot/contract/funding/routes";
import { userRoutes } from "@allot/contract/users/routes";
import { budgets } from "@allot/db/schema/budgets";
import { testEngines } from "@allot/db/testing/test-databases";
import { createBank } from "@allot/domain/banks/create-bank";
import { addDays, scheduleStepsWalked, WALK_DAYS } from "@allot/domain/funding/schedule-events";
import { internalContext } from "@allot/domain/shared/use-case-context";
import type { LightMyRequestResponse } from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import { type TestUser, useTestApp } from "../../../test/testing/test-app";

/*
 * Issue 14, item 1: a schedule that fires many times a day, or from 1900, froze the whole API
 * (201 after 8.3 s, then ~10 s per budget list, for every user). Each is now refused with 400,
 * and one written straight into the table is walked within bounds. The bounds are counted in
 * rrule steps (periods stepped through plus instants produced), the work that blocked every other
 * request, not in milliseconds: time on a shared machine measures the machine.
 */
// What one rule of one question may cost (decision 0022): 11,001 periods and 11,001 instants.
const STEPS_PER_RULE = 2 * (WALK_DAYS + 1);

const range = (n: number) => Array.from({ length: n }, (_, i) => i).join(",");
// The accounts' calendar is their owner's zone: UTC here, so "today" below is the UTC date.
const ZONE = "UTC";
const today = new Date().toISOString().slice(0, 10);
const compact = (date: string) => date.replaceAll("-", "");
const EVERY_SECOND = `DTSTART:${compact(addDays(today, -45))}\nRRULE:FREQ=DAILY;BYHOUR=${range(24)};BYMINUTE=${range(60)};BYSECOND=${range(60)}`;

const HOSTILE_FUNDING: [string, RegExp][] = [
  [EVERY_SECOND, /at most once a day: BYHOUR/],
  ["DTSTART:19000101\nRRULE:FREQ=DAILY", /10 years before today/],
  ["RRULE:FREQ=DAILY\nEXRULE:FREQ=SECONDLY", /not SECONDLY \(EXRULE\)/],
  ["RRULE:FREQ=SECONDLY", /not SECONDLY/],
  ["RRULE:FREQ=WEEKLY;BYMINUTE=0,15,30,45", /BYMINUTE/],
  ["RRULE:FREQ=WEEKLY\nRDATE:20260101T000000Z,20260101T000001Z", /RDATE takes dates/],
  [`RRULE:FREQ=WEEKLY\nEXDATE:${Array(101).fill(compact(today)).join(",")}`, /at most 100 dates/],
  [`RRULE:FREQ=WEEKLY\n${"EXRULE:FREQ=YEARLY\n".repeat(4)}`, /at most 4 rules/],
];

// Stored past the API: each would cost seconds to minutes walked the way it used to be.
const STORED = [
  EVERY_SECOND,
  "DTSTART:19000101\nRRULE:FREQ=DAILY",
  "DTSTART:19000101\nRRULE:FREQ=DAILY;COUNT=999999",
  "DTSTART:19000101\nRRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30;COUNT=5",
  `DTSTART:${compact(addDays(today, -45))}\nRRULE:FREQ=DAILY\nEXRULE:FREQ=SECONDLY`,
  `DTSTART:${compact(addDays(today, -3000))}\nRRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30`,
  `DTSTART:${compact(addDays(today, -45))}\nRRULE:FREQ=MINUTELY`,
];

describe.each(testEngines())("hostile schedules (%s)", (engine) => {
  const t = useTestApp(engine);
  let bankId: string;
  let bystander: TestUser;

  beforeAll(async () => {
    bankId = (await createBank(internalContext(t.db, "cli"), { name: "Schedule Bank", currency: "USD" })).id;
    bystander = await t.user();
  });

  const newAccount = async (user: TestUser) => {
    const response = await t.as(user).call(bankAccountRoutes.create, {
      name: "Checking",
      bank: bankId,
      available_balance: "1000.00",
      posted_balance: "1000.00",
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { id: string };
  };

  /**
   * Sends the request and, at the same moment, another user's, which must be answered too; and
   * counts the schedule steps walked meanwhile.
   */
  async function alongside(send: () => Promise<LightMyRequestResponse>) {
    const before = scheduleStepsWalked();
    const [answer, other] = await Promise.all([send(), t.as(bystander).call(userRoutes.getMe)]);
    expect(other.statusCode).toBe(200);
    return { answer, steps: scheduleStepsWalked() - before };
  }

  it("refuses each with 400 on create and update, funding and recurrence, while others are served", async () => {
    const user = await t.user({ timeZone: ZONE });
    const account = await newAccount(user);
    const goal = { name: "Goal", bank_account: account.id, budget_type: "G", funding_type: "F" } as const;
    const fields = { ...goal, target_balance: "500", funding_amount: "50" };
    const created = await t
      .as(user)
      .call(budgetRoutes.create, { ...fields, funding_schedule: "FREQ=WEEKLY" });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;
    for (const [schedule, message] of HOSTILE_FUNDING) {
      const post = await alongside(() =>
        t.as(user).call(budgetRoutes.create, { ...fields, funding_schedule: schedule }),
      );
      expect(post.answer.statusCode, schedule).toBe(400);
      // Refused before anything walks it.
      expect(post.steps, schedule).toBe(0);
      expect(post.answer.json(), schedule).toEqual({ funding_schedule: [expect.stringMatching(message)] });
      const patch = await alongside(() =>
        t.as(user).call(budgetRoutes.update, { id, funding_schedule: schedule }),
      );
      expect(patch.answer.statusCode, schedule).toBe(400);
      expect(Object.keys(patch.answer.json()), schedule).toEqual(["funding_schedule"]);
    }
    const recurring = await alongside(() =>
      t.as(user).call(budgetRoutes.create, {
        name: "Rent",
        bank_account: account.id,
        budget_type: "R",
        funding_type: "D",
        target_balance: "120.00",
        funding_schedule: "FREQ=WEEKLY",
        recurrence_schedule: "DTSTART:19000101\nRRULE:FREQ=WEEKLY",
      }),
    );
    expect(recurring.answer.statusCode, recurring.answer.body).toBe(400);
    expect(Object.keys(recurring.answer.json())).toEqual(["recurrence_schedule"]);
    expect(recurring.answer.json().recurrence_schedule).toContainEqual(
      expect.stringMatching(/10 years before/),
    );
    const list = await t.as(user).call(budgetRoutes.list, { bank_account: account.id });
    expect(
      list.json().results.map((budget: { funding_schedule: string }) => budget.funding_schedule),
    ).toEqual(expect.not.arrayContaining([expect.stringMatching(/SECONDLY|BYHOUR|1900/)]));
  });

  it("walks a hostile schedule written straight into the table within bounds", async () => {
    const user = await t.user({ timeZone: ZONE });
    // The same number of ordinary weekly budgets, for comparison: the bounds are what the
    // hostile schedules add to the request and to another user's request sent with it.
    const [account, control] = [await newAccount(user), await newAccount(user)];
    for (const [n, schedule] of STORED.entries()) {
      for (const [bankAccountId, fundingSchedule] of [
        [account.id, schedule],
        [control.id, `DTSTART:${compact(addDays(today, -45))}\nRRULE:FREQ=WEEKLY`],
      ] as const) {
        await t.db.insert(budgets).values({
          bankAccountId,
          name: `Stored ${n}`,
          budgetType: "G",
          fundingType: "F",
          targetBalance: "1000",
          fundingAmount: "1",
          fundingSchedule,
        });
      }
    }
    const owner = t.as(user);
    const requests = (id: string): [string, () => Promise<LightMyRequestResponse>][] => [
      [budgetRoutes.list.path, () => owner.call(budgetRoutes.list, { bank_account: id })],
      [fundingRoutes.summary.path, () => owner.call(fundingRoutes.summary, { id })],
      [
        fundingRoutes.eventDates.path,
        () =>
          owner.call(fundingRoutes.eventDates, {
            id,
            after: addDays(today, -1),
            before: addDays(today, 3000),
          }),
      ],
      [fundingRoutes.run.path, () => owner.call(fundingRoutes.run, { id })],
    ];
    for (const [n, [path, send]] of requests(account.id).entries()) {
      const ordinary = await alongside(requests(control.id)[n]?.[1] ?? send);
      const hostile = await alongside(send);
      expect(hostile.answer.statusCode, `${path}: ${hostile.answer.body}`).toBe(200);
      // At most one rule's bound per stored schedule (thousands of steps, milliseconds); unbounded,
      // the first schedule alone steps through millions of instants, for seconds.
      expect(hostile.steps, path).toBeLessThanOrEqual(ordinary.steps + STORED.length * STEPS_PER_RULE);
    }
    const list = await t.as(user).call(budgetRoutes.list, { bank_account: account.id });
    const next = Object.fromEntries(
      list
        .json()
        .results.map((budget: { name: string; next_funding: { date: string } | null }) => [
          budget.name,
          budget.next_funding?.date ?? null,
        ]),
    );
    // Within the walk's shape they still fire (daily, time parts ignored); a text holding a
    // sub-daily rule, a COUNT past 1,000 or a rule that never matches, never.
    expect(next).toMatchObject({
      "Stored 0": addDays(today, 1),
      "Stored 1": addDays(today, 1),
      "Stored 2": null,
      "Stored 3": null,
      "Stored 4": null,
      "Stored 5": null,
      "Stored 6": null,
    });
  });
});
