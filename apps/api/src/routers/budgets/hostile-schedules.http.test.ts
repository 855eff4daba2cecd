import { createBankAccountRoute } from "@allot/contract/bank-accounts/routes";
import { createBudgetRoute, listBudgetsRoute, updateBudgetRoute } from "@allot/contract/budgets/routes";
import { fundingEventDatesRoute, fundingSummaryRoute, runFundingRoute } from "@allot/contract/funding/routes";
import { getMeRoute } from "@allot/contract/users/routes";
import { budgets } from "@allot/db/schema/budgets";
import { testEngines } from "@allot/db/testing/test-databases";
import { createBank } from "@allot/domain/banks/create-bank";
import { addDays } from "@allot/domain/funding/schedule-events";
import { internalContext } from "@allot/domain/shared/use-case-context";
import type { LightMyRequestResponse } from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import { type TestUser, useTestApp } from "../../../test/testing/test-app";

/*
 * Issue 14, item 1: a schedule that fires many times a day, or from 1900, froze the whole API
 * (201 after 8.3 s, then ~10 s per budget list, for every user). Each is now refused with 400,
 * and one written straight into the table is walked within bounds; meanwhile another user's
 * request is answered within 100 ms.
 */
const BYSTANDER_MS = 100;
const LIST_MS = 500;
// The machines that run this are shared: a lone request's own time there (the slowest of a few,
// measured first) is added to each bound, so the bounds measure what a schedule adds.
let baseline = 0;

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
    // Warm the paths once, so the timings below measure the work and not the first compile.
    await t.as(bystander).call(getMeRoute);
    const warm = await newAccount(bystander);
    await t.as(bystander).call(listBudgetsRoute, { bank_account: warm.id });
    await t.as(bystander).call(fundingSummaryRoute, { id: warm.id });
    for (let n = 0; n < 3; n += 1) {
      const started = performance.now();
      await t.as(bystander).call(listBudgetsRoute, { bank_account: warm.id });
      baseline = Math.max(baseline, performance.now() - started);
    }
  });

  const newAccount = async (user: TestUser) => {
    const response = await t.as(user).call(createBankAccountRoute, {
      name: "Checking",
      bank: bankId,
      available_balance: "1000.00",
      posted_balance: "1000.00",
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { id: string };
  };

  /** Sends the request and, at the same moment, another user's; both timed from the start. */
  async function alongside(send: () => Promise<LightMyRequestResponse>) {
    const started = performance.now();
    const timed = (response: Promise<LightMyRequestResponse>) =>
      response.then((answer) => ({ answer, ms: performance.now() - started }));
    const [main, other] = await Promise.all([timed(send()), timed(t.as(bystander).call(getMeRoute))]);
    expect(other.answer.statusCode).toBe(200);
    return { main, other };
  }

  /**
   * Sends the request and, at the same moment, another user's, which must be answered within
   * BYSTANDER_MS more than `usual`. Load from other processes only ever adds time, so the fastest
   * of three tries counts for the other request; the first try's answer and time are returned.
   */
  async function meanwhile(send: () => Promise<LightMyRequestResponse>, usual = baseline) {
    const first = await alongside(send);
    let fastest = first.other.ms;
    for (let n = 0; n < 2 && fastest >= BYSTANDER_MS + usual; n += 1)
      fastest = Math.min(fastest, (await alongside(send)).other.ms);
    expect(fastest, "another user's request, meanwhile").toBeLessThan(BYSTANDER_MS + usual);
    return first.main;
  }

  it("refuses each with 400 on create and update, funding and recurrence, while others are served", async () => {
    const user = await t.user({ timeZone: ZONE });
    const account = await newAccount(user);
    const goal = { name: "Goal", bank_account: account.id, budget_type: "G", funding_type: "F" } as const;
    const fields = { ...goal, target_balance: "500", funding_amount: "50" };
    const created = await t.as(user).call(createBudgetRoute, { ...fields, funding_schedule: "FREQ=WEEKLY" });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;
    for (const [schedule, message] of HOSTILE_FUNDING) {
      const post = await meanwhile(() =>
        t.as(user).call(createBudgetRoute, { ...fields, funding_schedule: schedule }),
      );
      expect(post.answer.statusCode, schedule).toBe(400);
      expect(post.ms, schedule).toBeLessThan(LIST_MS + baseline);
      expect(post.answer.json(), schedule).toEqual({ funding_schedule: [expect.stringMatching(message)] });
      const patch = await meanwhile(() =>
        t.as(user).call(updateBudgetRoute, { id, funding_schedule: schedule }),
      );
      expect(patch.answer.statusCode, schedule).toBe(400);
      expect(Object.keys(patch.answer.json()), schedule).toEqual(["funding_schedule"]);
    }
    const recurring = await meanwhile(() =>
      t.as(user).call(createBudgetRoute, {
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
    const list = await t.as(user).call(listBudgetsRoute, { bank_account: account.id });
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
      [listBudgetsRoute.path, () => owner.call(listBudgetsRoute, { bank_account: id })],
      [fundingSummaryRoute.path, () => owner.call(fundingSummaryRoute, { id })],
      [
        fundingEventDatesRoute.path,
        () =>
          owner.call(fundingEventDatesRoute, { id, after: addDays(today, -1), before: addDays(today, 3000) }),
      ],
      [runFundingRoute.path, () => owner.call(runFundingRoute, { id })],
    ];
    for (const [n, [path, send]] of requests(account.id).entries()) {
      const ordinary = await alongside(requests(control.id)[n]?.[1] ?? send);
      const hostile = await meanwhile(send, Math.max(baseline, ordinary.other.ms));
      expect(hostile.answer.statusCode, `${path}: ${hostile.answer.body}`).toBe(200);
      expect(hostile.ms, path).toBeLessThan(LIST_MS + ordinary.main.ms);
    }
    const list = await t.as(user).call(listBudgetsRoute, { bank_account: account.id });
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
