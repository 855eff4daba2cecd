import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { budgetRoutes } from "@allot/contract/budgets/routes";
import { fundingOccurrenceRoutes } from "@allot/contract/funding-occurrences/routes";
import { bankAccountOwners } from "@allot/db/schema/bank-accounts";
import { fundingOccurrences } from "@allot/db/schema/funding-occurrences";
import { testEngines } from "@allot/db/testing/test-databases";
import { createBank } from "@allot/domain/banks/create-bank";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { beforeAll, describe, expect, it } from "vitest";
import { type TestUser, useTestApp } from "../../../test/testing/test-app";
import type { CallInput } from "../../../test/testing/test-client";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const URL_PATH = "/api/v1/funding-occurrences/";
const MISSING = "00000000-0000-4000-8000-000000000000";

type OccurrenceValues = Partial<typeof fundingOccurrences.$inferInsert>;

describe.each(testEngines())("funding occurrences over HTTP (%s)", (engine) => {
  const t = useTestApp(engine);
  let bankId: string;

  beforeAll(async () => {
    bankId = (await createBank(internalContext(t.db, "cli"), { name: "Occurrence Bank", currency: "EUR" }))
      .id;
  });

  async function account(user: TestUser) {
    const response = await t.as(user).call(bankAccountRoutes.create, {
      name: "Checking",
      bank: bankId,
      available_balance: "100.00",
      posted_balance: "100.00",
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id as string;
  }

  async function budget(user: TestUser, accountId: string, name = "Holiday") {
    const response = await t.as(user).call(budgetRoutes.create, {
      name,
      bank_account: accountId,
      budget_type: "G",
      funding_type: "F",
      target_balance: "500",
      funding_amount: "50",
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id as string;
  }

  /** The funding engine is not wired up yet: occurrences are seeded straight into the table. */
  async function occurrence(accountId: string, budgetId: string, values: OccurrenceValues = {}) {
    const [row] = await t.db
      .insert(fundingOccurrences)
      .values({
        bankAccountId: accountId,
        budgetId,
        kind: "fund",
        scheduledDate: "2026-01-01",
        amount: "50",
        ...values,
      })
      .returning();
    if (!row) throw new Error("no occurrence");
    return row.id;
  }

  type Query = CallInput<typeof fundingOccurrenceRoutes.list>;
  const list = (user: TestUser, query: Query = {}) => t.as(user).call(fundingOccurrenceRoutes.list, query);

  const ids = async (user: TestUser, query: Query = {}) => {
    const response = await list(user, query);
    expect(response.statusCode, `${JSON.stringify(query)}: ${response.body}`).toBe(200);
    return response.json().results.map((r) => r.id);
  };

  /** A user with two accounts, three budgets and five occurrences spread over dates, kinds and states. */
  async function seeded() {
    const user = await t.user();
    const a = await account(user);
    const b = await account(user);
    const holiday = await budget(user, a, "Holiday");
    const rent = await budget(user, a, "Rent");
    const car = await budget(user, b, "Car");
    const at = (day: string) => new Date(`2026-01-${day}T12:00:00Z`);
    // created_at runs in another order than scheduled_date, and o1/o3 share a scheduled date.
    const o1 = await occurrence(a, holiday, { scheduledDate: "2026-01-10", createdAt: at("03") });
    const o2 = await occurrence(a, rent, {
      kind: "recur",
      scheduledDate: "2026-01-05",
      status: "COMPLETE",
      completedAt: at("05"),
      createdAt: at("04"),
    });
    const o3 = await occurrence(a, rent, {
      scheduledDate: "2026-01-10",
      status: "PARTIAL",
      createdAt: at("01"),
    });
    const o4 = await occurrence(b, car, {
      scheduledDate: "2026-02-01",
      status: "SKIPPED",
      createdAt: at("02"),
    });
    const o5 = await occurrence(b, car, {
      kind: "recur",
      scheduledDate: "2026-03-01",
      status: "COMPLETE",
      completedAt: at("06"),
      createdAt: at("06"),
    });
    return { user, a, b, holiday, rent, car, o1, o2, o3, o4, o5 };
  }

  describe("list", () => {
    it("answers the spec's page of occurrences, without the engine's amounts", async () => {
      const user = await t.user();
      const a = await account(user);
      const goal = await budget(user, a);
      const id = await occurrence(a, goal, {
        kind: "recur",
        scheduledDate: "2026-04-30",
        status: "COMPLETE",
        movedAmount: "50",
        completedAt: new Date("2026-04-30T06:00:00Z"),
      });
      const response = await list(user);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      expect(body).toEqual({ count: 1, next: null, previous: null, results: [expect.any(Object)] });
      expect(body.results[0]).toEqual({
        id,
        budget: goal,
        kind: "recur",
        scheduled_date: "2026-04-30",
        status: "COMPLETE",
        completed_at: "2026-04-30T06:00:00.000Z",
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        modified_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      });
      expect(body.results[0]?.id).toMatch(UUID);
      // Not COMPLETE: completed_at is null.
      await occurrence(a, goal, { scheduledDate: "2026-05-01" });
      const pending = await list(user, { status: "PENDING" });
      expect(pending.json().results).toEqual([
        expect.objectContaining({ status: "PENDING", completed_at: null }),
      ]);
    });

    it("orders by scheduled_date, then created_at, by default", async () => {
      const s = await seeded();
      expect(await ids(s.user)).toEqual([s.o2, s.o3, s.o1, s.o4, s.o5]);
    });

    it("orders by scheduled_date and created_at, both ways", async () => {
      const s = await seeded();
      expect(await ids(s.user, { ordering: "scheduled_date" })).toEqual([s.o2, s.o3, s.o1, s.o4, s.o5]);
      expect(await ids(s.user, { ordering: "-scheduled_date" })).toEqual([s.o5, s.o4, s.o1, s.o3, s.o2]);
      expect(await ids(s.user, { ordering: "created_at" })).toEqual([s.o3, s.o4, s.o1, s.o2, s.o5]);
      expect(await ids(s.user, { ordering: "-created_at" })).toEqual([s.o5, s.o2, s.o1, s.o4, s.o3]);
    });

    it("filters by bank_account, budget, kind and scheduled_date (both bounds inclusive)", async () => {
      const s = await seeded();
      expect(await ids(s.user, { bank_account: s.a })).toEqual([s.o2, s.o3, s.o1]);
      expect(await ids(s.user, { bank_account: s.b })).toEqual([s.o4, s.o5]);
      expect(await ids(s.user, { budget: s.rent })).toEqual([s.o2, s.o3]);
      expect(await ids(s.user, { budget: s.holiday })).toEqual([s.o1]);
      expect(await ids(s.user, { budget: s.car.toUpperCase() })).toEqual([s.o4, s.o5]);
      expect(await ids(s.user, { kind: "fund" })).toEqual([s.o3, s.o1, s.o4]);
      expect(await ids(s.user, { kind: "recur" })).toEqual([s.o2, s.o5]);
      expect(await ids(s.user, { date_from: "2026-01-10" })).toEqual([s.o3, s.o1, s.o4, s.o5]);
      expect(await ids(s.user, { date_to: "2026-01-10" })).toEqual([s.o2, s.o3, s.o1]);
      expect(await ids(s.user, { date_from: "2026-01-06", date_to: "2026-02-01" })).toEqual([
        s.o3,
        s.o1,
        s.o4,
      ]);
      expect(await ids(s.user, { date_from: "2026-02-02", date_to: "2026-02-28" })).toEqual([]);
      expect(await ids(s.user, { bank_account: s.a, kind: "fund", date_from: "2026-01-10" })).toEqual([
        s.o3,
        s.o1,
      ]);
    });

    it("filters by status: one value, or any of a repeated one", async () => {
      const s = await seeded();
      expect(await ids(s.user, { status: "PENDING" })).toEqual([s.o1]);
      expect(await ids(s.user, { status: "COMPLETE" })).toEqual([s.o2, s.o5]);
      expect(await ids(s.user, { status: ["PARTIAL", "COMPLETE"] })).toEqual([s.o2, s.o3, s.o5]);
      expect(await ids(s.user, { status: ["SKIPPED", "PENDING", "PARTIAL"] })).toEqual([s.o3, s.o1, s.o4]);
      expect(await ids(s.user, { status: ["COMPLETE", "COMPLETE"] })).toEqual([s.o2, s.o5]);
      expect(await ids(s.user, { status: ["COMPLETE", "SKIPPED"], bank_account: s.b })).toEqual([s.o4, s.o5]);
    });

    it("pages, and the page links keep a repeated status", async () => {
      const s = await seeded();
      const first = await list(s.user, { status: ["PENDING", "PARTIAL", "SKIPPED"], page_size: 2 });
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json()).toMatchObject({ count: 3, previous: null });
      expect(first.json().results.map((r: { id: string }) => r.id)).toEqual([s.o3, s.o1]);
      const next = new URL(String(first.json().next));
      expect(next.searchParams.getAll("status")).toEqual(["PENDING", "PARTIAL", "SKIPPED"]);
      expect(next.searchParams.get("page")).toBe("2");

      // Raw: the next link's query as the server wrote it.
      const second = await t.inject({
        url: `${URL_PATH}${next.search}`,
        headers: { authorization: s.user.bearer },
      });
      expect(second.json()).toMatchObject({ count: 3, next: null, results: [{ id: s.o4 }] });
      expect(second.json().previous).toContain("page=1");
      expect(await ids(s.user, { page_size: 2, page: 3 })).toEqual([s.o5]);
      expect((await list(s.user, { page_size: 2, page: 4 })).statusCode).toBe(404);
    });

    it("shows only the caller's occurrences; another user's account or budget filters to an empty page", async () => {
      const s = await seeded();
      const other = await t.user();
      const theirs = await account(other);
      const theirBudget = await budget(other, theirs);
      const hidden = await occurrence(theirs, theirBudget, { scheduledDate: "2026-01-07" });
      expect(await ids(other)).toEqual([hidden]);
      expect(await ids(s.user)).not.toContain(hidden);
      for (const query of [{ bank_account: theirs }, { budget: theirBudget }, { bank_account: MISSING }]) {
        const response = await list(s.user, query);
        expect(response.statusCode, JSON.stringify(query)).toBe(200);
        expect(response.json()).toEqual({ count: 0, next: null, previous: null, results: [] });
      }
      // The caller's own account with someone else's budget: still nothing.
      expect(await ids(s.user, { bank_account: s.a, budget: theirBudget })).toEqual([]);
    });

    it("shows a shared account's occurrences to each co-owner", async () => {
      const s = await seeded();
      const partner = await t.user();
      // Invitations are not built yet: share the account the way accepting one will.
      await t.db.insert(bankAccountOwners).values({ bankAccountId: s.b, userId: partner.id });
      expect(await ids(partner)).toEqual([s.o4, s.o5]);
      const fetched = await t.as(partner).call(fundingOccurrenceRoutes.get, { id: s.o4 });
      expect(fetched.statusCode).toBe(200);
      expect((await t.as(partner).call(fundingOccurrenceRoutes.get, { id: s.o1 })).statusCode).toBe(404);
    });

    it("answers 400 naming the field for a bad filter value", async () => {
      const user = await t.user();
      for (const [query, field] of [
        [{ status: "DONE" }, "status"],
        [{ status: "pending" }, "status"],
        [{ status: ["PENDING", "nope"] }, "status"],
        [{ kind: "monthly" }, "kind"],
        [{ date_from: "2026-02-30" }, "date_from"],
        [{ date_to: "soon" }, "date_to"],
        [{ date_from: "2026-01-01T00:00:00Z" }, "date_from"],
        [{ bank_account: "nope" }, "bank_account"],
        [{ budget: "1234" }, "budget"],
        [{ ordering: "amount" }, "ordering"],
        [{ ordering: "-status" }, "ordering"],
        [{ page: 0 }, "page"],
      ] as const) {
        const response = await t.as(user).callUnchecked(fundingOccurrenceRoutes.list, query);
        expect(response.statusCode, `${JSON.stringify(query)}: ${response.body}`).toBe(400);
        expect(Object.keys(response.json<Record<string, unknown>>()), JSON.stringify(query)).toEqual([field]);
      }
      const statusError = await t
        .as(user)
        .callUnchecked(fundingOccurrenceRoutes.list, { status: ["PENDING", "DONE"] });
      expect(statusError.json()).toEqual({
        status: ['"DONE" is not a valid choice; use PENDING, PARTIAL, COMPLETE, SKIPPED.'],
      });
    });
  });

  describe("retrieve", () => {
    it("returns one occurrence, the same as in the list", async () => {
      const s = await seeded();
      const response = await t.as(s.user).call(fundingOccurrenceRoutes.get, { id: s.o2 });
      expect(response.statusCode, response.body).toBe(200);
      const listed = (await list(s.user, { budget: s.rent })).json().results[0];
      expect(response.json()).toEqual(listed);
      expect(response.json()).toMatchObject({ id: s.o2, budget: s.rent, kind: "recur", status: "COMPLETE" });
      const noSlash = await t.inject({
        url: `/api/v1/funding-occurrences/${s.o2.toUpperCase()}`,
        headers: { authorization: s.user.bearer },
      });
      expect(noSlash.statusCode).toBe(200);
      expect(noSlash.json().id).toBe(s.o2);
    });

    it("answers 404 for another user's occurrence, an unknown id and a malformed one", async () => {
      const s = await seeded();
      const intruder = await t.user();
      for (const [user, id] of [
        [intruder, s.o1],
        [s.user, MISSING],
        [s.user, "not-a-uuid"],
      ] as const) {
        const response = await t.as(user).call(fundingOccurrenceRoutes.get, { id });
        expect(response.statusCode, id).toBe(404);
        expect(response.json<{ code: string }>().code).toBe("not_found");
      }
    });
  });

  describe("access", () => {
    it("answers 401 without credentials", async () => {
      for (const [route, input] of [
        [fundingOccurrenceRoutes.list, {}],
        [fundingOccurrenceRoutes.get, { id: MISSING }],
      ] as const) {
        const response = await t.anonymous.callUnchecked(route, input);
        expect(response.statusCode, `${route.method} ${route.path}`).toBe(401);
      }
    });

    it("is read-only: POST, PUT, PATCH and DELETE answer 405 and change nothing", async () => {
      const s = await seeded();
      const before = (await t.as(s.user).call(fundingOccurrenceRoutes.get, { id: s.o1 })).json();
      // Raw: wrong methods, with and without the trailing slash.
      for (const method of ["POST", "PUT", "PATCH", "DELETE"] as const) {
        for (const url of [
          URL_PATH,
          URL_PATH.slice(0, -1),
          `/api/v1/funding-occurrences/${s.o1}/`,
          `/api/v1/funding-occurrences/${s.o1}`,
        ]) {
          const response = await t.inject({
            method,
            url,
            headers: { authorization: s.user.bearer },
            payload: { status: "SKIPPED" },
          });
          expect(response.statusCode, `${method} ${url}`).toBe(405);
          expect(response.json().code).toBe("method_not_allowed");
          expect(response.headers.allow).toBe("GET");
        }
      }
      const after = await t.as(s.user).call(fundingOccurrenceRoutes.get, { id: s.o1 });
      expect(after.json()).toEqual(before);
      expect(await ids(s.user)).toHaveLength(5);
    });
  });
});
