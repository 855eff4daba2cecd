import { ActivityEventSchema } from "@allot/contract/activity/activity-event";
import { allRoutes } from "@allot/contract/routes";
import { accountEvents } from "@allot/db/schema/account-events";
import { testEngines } from "@allot/db/testing/test-databases";
import { localDate } from "@allot/domain/calendar/local-days";
import { toActivityEventView } from "@allot/domain/events/activity-event-view";
import { addDays } from "@allot/domain/funding/schedule-events";
import { asc, gt, max } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { aBudget } from "../testing/fixtures";
import { type TestApp, useTestApp } from "../testing/test-app";
import { useTestMailbox } from "../testing/test-mailbox";
import { type CellRequest, ROUTE_CASES } from "./authorization-expectations";
import { buildOwnerWorld, type OwnerWorld } from "./owner-world";

/*
 * The activity trail's coverage (docs/decisions/0031-activity-trail.md): every mutating route of
 * the contract says on itself (`events`) which events it records, or why it records none, so a new
 * endpoint cannot forget its event. Each recording route is then called as the account's owner (the
 * authorisation matrix's request, which is valid for the owner) and must record events of its
 * types only, at least one, with the request's id and the owner as actor.
 */

/**
 * Requests of our own where the matrix's would change nothing for the owner: the world has funded
 * everything due already, so a daily Goal is added and the run reaches two days ahead.
 */
const OWN_REQUESTS: Record<string, (t: TestApp, world: OwnerWorld) => Promise<CellRequest>> = {
  "POST /v1/bank-accounts/{id}/run-funding/": async (t, world) => {
    const today = localDate(new Date(), world.ownerUser.timezone);
    const account = { id: String(world.account.id) };
    await aBudget(t, world.owner, account, {
      name: "Daily",
      funding_amount: "1.00",
      funding_schedule: `DTSTART:${today.replaceAll("-", "")}\nRRULE:FREQ=DAILY`,
    });
    return {
      path: `/v1/bank-accounts/${account.id}/run-funding/`,
      payload: { as_of: addDays(today, 2) },
    };
  },
};

const keyOf = (route: { method: string; path: string }) => `${route.method} ${route.path}`;
const mutating = allRoutes.filter((route) => route.method !== "GET" && !route.reads);

describe("the activity trail's routes", () => {
  it("says on every mutating route what it records, and on no GET or read", () => {
    expect(
      mutating.filter((route) => !route.events).map(keyOf),
      "mutating routes without `events`: what do they record, or why nothing?",
    ).toEqual([]);
    expect(
      allRoutes.filter((route) => (route.method === "GET" || route.reads) && route.events).map(keyOf),
      "a GET records nothing",
    ).toEqual([]);
  });
});

describe.each(testEngines())("what each mutating route records (%s)", (engine) => {
  const t = useTestApp(engine);
  const mailbox = useTestMailbox(() => t.db);

  const lastSeq = async () =>
    (await t.db.select({ seq: max(accountEvents.seq) }).from(accountEvents))[0]?.seq ?? 0;

  for (const route of mutating) {
    const records = route.events;
    if (!records || !Array.isArray(records)) continue;
    it(`${keyOf(route)} records ${records.join(" or ")}`, async () => {
      const world = await buildOwnerWorld(t, mailbox);
      const own = OWN_REQUESTS[keyOf(route)];
      const routeCase = ROUTE_CASES[keyOf(route)];
      if (!routeCase) throw new Error(`no matrix request for ${keyOf(route)}`);
      const request = own ? await own(t, world) : await routeCase.request(world, "other_user_token");
      const before = await lastSeq();
      const response = await t.inject({
        method: route.method,
        url: `/api${request.path}`,
        headers: { authorization: world.owner.bearer },
        ...(request.payload === undefined ? {} : { payload: request.payload as Record<string, unknown> }),
      });
      expect(response.statusCode, response.body).toBeLessThan(300);
      const events = await t.db
        .select()
        .from(accountEvents)
        .where(gt(accountEvents.seq, before))
        .orderBy(asc(accountEvents.seq));
      expect(events.length, "the owner's request recorded nothing").toBeGreaterThan(0);
      for (const event of events) expect(records).toContain(event.type);
      // Public routes act for whoever the emailed secret names (an invitation's invitee).
      const actor = route.access === "public" ? expect.any(String) : world.owner.username;
      for (const event of events) {
        expect(event.requestId).toBe(response.headers["x-request-id"]);
        expect(event).toMatchObject({ actorKind: "user", actorUsername: actor, actorApiKey: null });
        // Its data is its type's, as the contract types it: nothing missing, wrong or extra.
        const view = toActivityEventView(event);
        expect(ActivityEventSchema.parse(view), event.type).toEqual(view);
      }
    });
  }
});
