import { ActivityEventSchema } from "@allot/contract/activity/activity-event";
import type { ActivityEventType } from "@allot/contract/activity/activity-event-types";
import { allRoutes } from "@allot/contract/routes";
import { accountEvents } from "@allot/db/schema/account-events";
import { testEngines } from "@allot/db/testing/test-databases";
import { toActivityEventView } from "@allot/domain/activity/activity-event-view";
import { localDate } from "@allot/domain/calendar/local-days";
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
 * the contract is listed here with the events it records, or with why it records none. The table
 * is checked against `allRoutes`, so a new endpoint cannot forget its event; each recording route
 * is then called as the account's owner (the authorisation matrix's request, which is valid for the
 * owner) and must record exactly those events, with the request's id and the owner as actor.
 */

type Records = readonly ActivityEventType[] | { none: string };

const NOT_ACCOUNT_DATA = {
  none: "not an account's data (tokens, users, keys, credentials, preferences, webhooks)",
};
const GLOBAL_CATEGORIES = { none: "categories are the user's, shared by all their accounts" };

const RECORDS: Record<string, Records> = {
  "POST /token/": NOT_ACCOUNT_DATA,
  "POST /token/refresh/": NOT_ACCOUNT_DATA,
  "POST /token/logout/": NOT_ACCOUNT_DATA,
  "PATCH /v1/users/me/": NOT_ACCOUNT_DATA,
  "PUT /v1/users/{username}/": NOT_ACCOUNT_DATA,
  "PATCH /v1/users/{username}/": NOT_ACCOUNT_DATA,
  "POST /v1/users/me/api-keys/": NOT_ACCOUNT_DATA,
  "POST /v1/users/me/api-keys/{uuid}/revoke/": NOT_ACCOUNT_DATA,
  "POST /v1/users/me/api-keys/revoke-all/": NOT_ACCOUNT_DATA,
  "POST /v1/users/me/change-password/": NOT_ACCOUNT_DATA,
  "POST /v1/users/me/change-email/": NOT_ACCOUNT_DATA,
  "POST /v1/users/me/change-email/{token}/confirm/": NOT_ACCOUNT_DATA,
  "POST /v1/users/me/change-email/{token}/revoke/": NOT_ACCOUNT_DATA,
  "POST /v1/password-reset/": NOT_ACCOUNT_DATA,
  "POST /v1/password-reset/{token}/confirm/": NOT_ACCOUNT_DATA,
  "PATCH /v1/channel-preferences/{channel}/": NOT_ACCOUNT_DATA,
  "PATCH /v1/notification-preferences/{kind}/": NOT_ACCOUNT_DATA,
  "POST /v1/bank-accounts/": ["bank_account.created"],
  "PUT /v1/bank-accounts/{id}/": ["bank_account.updated"],
  "PATCH /v1/bank-accounts/{id}/": ["bank_account.updated"],
  "DELETE /v1/bank-accounts/{id}/": { none: "the account's events are deleted with it" },
  "POST /v1/bank-accounts/{id}/mark-imported/": ["bank_account.imported"],
  "POST /v1/budgets/": ["budget.created"],
  "PUT /v1/budgets/{id}/": ["budget.updated"],
  "PATCH /v1/budgets/{id}/": ["budget.paused"],
  "DELETE /v1/budgets/{id}/": ["budget.deleted"],
  "POST /v1/budgets/{id}/archive/": ["budget.archived"],
  "POST /v1/transaction-categories/": GLOBAL_CATEGORIES,
  "PUT /v1/transaction-categories/{id}/": GLOBAL_CATEGORIES,
  "PATCH /v1/transaction-categories/{id}/": GLOBAL_CATEGORIES,
  "DELETE /v1/transaction-categories/{id}/": GLOBAL_CATEGORIES,
  "POST /v1/transaction-categories/{id}/archive/": GLOBAL_CATEGORIES,
  "POST /v1/transactions/": ["transaction.created"],
  "PUT /v1/transactions/{id}/": ["transaction.updated"],
  "PATCH /v1/transactions/{id}/": ["transaction.updated"],
  "DELETE /v1/transactions/{id}/": ["transaction.deleted"],
  "POST /v1/transactions/{id}/resolve-pending/": ["transaction.posted"],
  "POST /v1/transactions/{id}/splits/": ["transaction.split"],
  "POST /v1/internal-transactions/": ["transfer.created"],
  "POST /v1/bank-accounts/{id}/run-funding/": ["funding.completed"],
  "POST /v1/bank-accounts/{id}/sync-scrape/": ["import.synced"],
  "POST /v1/bank-accounts/{id}/transaction-details/": ["transaction.enriched"],
  "POST /v1/bank-accounts/{id}/invite/": ["invitation.created"],
  "POST /v1/bank-accounts/{id}/invitations/{token}/cancel/": ["invitation.cancelled"],
  "POST /v1/invitations/{token}/accept/": ["invitation.accepted", "bank_account.owner_added"],
  "POST /v1/invitations/{token}/decline/": ["invitation.declined"],
  "POST /v1/webhooks/": NOT_ACCOUNT_DATA,
  "PATCH /v1/webhooks/{id}/": NOT_ACCOUNT_DATA,
  "DELETE /v1/webhooks/{id}/": NOT_ACCOUNT_DATA,
  "POST /v1/webhooks/{id}/rotate-secret/": NOT_ACCOUNT_DATA,
  "POST /v1/webhooks/{id}/test/": NOT_ACCOUNT_DATA,
  "POST /v1/webhooks/{id}/deliveries/{delivery_id}/redeliver/": NOT_ACCOUNT_DATA,
};

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
const mutating = allRoutes.filter((route) => route.method !== "GET");

describe("the activity trail's route table", () => {
  it("lists every mutating route of the contract, and nothing else", () => {
    const declared = mutating.map(keyOf);
    expect(
      declared.filter((key) => !RECORDS[key]),
      "mutating routes with no entry in RECORDS: what does it record?",
    ).toEqual([]);
    expect(
      Object.keys(RECORDS).filter((key) => !declared.includes(key)),
      "entries for routes the contract no longer has",
    ).toEqual([]);
  });
});

describe.each(testEngines())("what each mutating route records (%s)", (engine) => {
  const t = useTestApp(engine);
  const mailbox = useTestMailbox(() => t.db);

  const lastSeq = async () =>
    (await t.db.select({ seq: max(accountEvents.seq) }).from(accountEvents))[0]?.seq ?? 0;

  for (const route of mutating) {
    const records = RECORDS[keyOf(route)];
    if (!records || !Array.isArray(records)) continue;
    it(`${keyOf(route)} records ${records.join(" and ")}`, async () => {
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
      expect(events.map((event) => event.type)).toEqual(records);
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
