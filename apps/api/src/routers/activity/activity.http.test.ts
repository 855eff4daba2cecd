import { randomUUID } from "node:crypto";
import { ACTIVITY_EVENT_EXAMPLES } from "@allot/contract/activity/activity-event-data";
import type { ActivityEventType } from "@allot/contract/activity/activity-event-types";
import { activityRoutes } from "@allot/contract/activity/routes";
import { apiKeyRoutes } from "@allot/contract/api-keys/routes";
import { bankAccountOwners, bankAccounts } from "@allot/db/schema/bank-accounts";
import { testEngines } from "@allot/db/testing/test-databases";
import { recordEvent } from "@allot/domain/events/record-event";
import {
  internalContext,
  type PublicContext,
  type UseCaseContext,
} from "@allot/domain/shared/use-case-context";
import { exampleChange } from "@allot/domain/testing/event-examples";
import { aBank } from "@allot/domain/testing/fixtures";
import { asUser, sessionActor } from "@allot/domain/testing/use-case-context";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/testing/test-app";
import type { CallInput, CallOutput } from "../../../test/testing/test-client";

type Page = CallOutput<typeof activityRoutes.list>;
type Query = Omit<CallInput<typeof activityRoutes.list>, "id">;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/*
 * The read side of the activity trail: GET /bank-accounts/{id}/activity/. Events are written with
 * `recordEvent` itself (the one writer), in a transaction as a use case would, and accounts and
 * co-owners straight into the database: the use cases that make them record events of their own,
 * and this file counts only the ones it writes.
 */
describe.each(testEngines())("activity over HTTP: the list (%s)", (engine) => {
  const t = useTestApp(engine);

  const actorOf = sessionActor;

  /** An account owned by `owners` (the first one's calendar is the account's), with no events. */
  async function account(...owners: { id: number }[]) {
    const bank = await aBank(t.db, { currency: "EUR" });
    const [row] = await t.db
      .insert(bankAccounts)
      .values({ name: "Household", bankId: bank.id, currency: "EUR" })
      .returning({ id: bankAccounts.id });
    if (!row) throw new Error("no account");
    // One owner a second after the other: "first owner" is a fact, not a tie broken by username.
    // They joined before every event this file writes (a co-owner sees no others' invitations from
    // before they joined: decision 0053).
    const start = Date.parse("2026-01-01T00:00:00.000Z");
    for (const [i, owner] of owners.entries())
      await t.db
        .insert(bankAccountOwners)
        .values({ bankAccountId: row.id, userId: owner.id, createdAt: new Date(start + i * 1000) });
    return row.id;
  }

  /** One event, written by recordEvent in its own transaction, as of `at` (now unless told). */
  async function event(
    ctx: UseCaseContext | PublicContext,
    accountId: string,
    type: ActivityEventType,
    says: string,
    options: { at?: string } = {},
  ) {
    const context = { ...ctx, now: options.at ? new Date(options.at) : ctx.now };
    const id = await t.db.transaction((tx) => recordEvent(tx, context, exampleChange(accountId, type, says)));
    return { id, requestId: context.request.id, at: context.now.toISOString() };
  }

  const list = (who: Parameters<typeof t.as>[0], id: string, query: Query = {}) =>
    t.as(who).call(activityRoutes.list, { id, ...query });

  /** The page a caller may read: 200, its body. */
  async function page(who: Parameters<typeof t.as>[0], id: string, query: Query = {}): Promise<Page> {
    const response = await list(who, id, query);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }
  const types = async (who: Parameters<typeof t.as>[0], id: string, query: Query = {}) =>
    (await page(who, id, query)).results.map((e) => e.type);

  it("lists the account's events newest first, each as the contract shapes it", async () => {
    const owner = await t.user();
    const accountId = await account(owner);
    const other = await account(owner);
    const ctx = asUser(t.db, actorOf(owner));
    const created = await event(ctx, accountId, "budget.created", "created the budget Rent", {
      at: "2026-03-01T09:00:00.000Z",
    });
    await event(ctx, other, "budget.created", "created the budget Elsewhere", {
      at: "2026-03-01T09:30:00.000Z",
    });
    await event(ctx, accountId, "budget.updated", "changed the budget Rent", {
      at: "2026-03-02T09:00:00.000Z",
    });
    // Two events of one instant (an accepted invitation writes two): the order they were written.
    const same = "2026-03-03T09:00:00.000Z";
    await event(ctx, accountId, "invitation.accepted", "accepted the invitation", { at: same });
    await event(ctx, accountId, "bank_account.owner_added", "became an owner", { at: same });

    const all = await page(owner, accountId);
    expect(all.count).toBe(4);
    expect(all.next).toBeNull();
    expect(all.previous).toBeNull();
    expect(all.results.map((e) => e.type)).toEqual([
      "bank_account.owner_added",
      "invitation.accepted",
      "budget.updated",
      "budget.created",
    ]);
    expect(all.results[3]).toEqual({
      id: created.id,
      type: "budget.created",
      occurred_at: "2026-03-01T09:00:00.000Z",
      bank_account: accountId,
      actor: { kind: "user", username: owner.username, api_key: null },
      request_id: created.requestId,
      summary: `${owner.username} created the budget Rent`,
      data: ACTIVITY_EVENT_EXAMPLES["budget.created"],
    });
    expect(all.results.every((e) => UUID.test(e.id) && e.bank_account === accountId)).toBe(true);
    expect(await types(owner, other)).toEqual(["budget.created"]);
  });

  it("pages with count, next and previous, page_size, and 404 past the last page", async () => {
    const owner = await t.user();
    const accountId = await account(owner);
    const ctx = asUser(t.db, actorOf(owner));
    for (const day of ["01", "02", "03", "04", "05"])
      await event(ctx, accountId, "transaction.created", `added transaction ${day}`, {
        at: `2026-03-${day}T12:00:00.000Z`,
      });

    const first = await page(owner, accountId, { page_size: 2, type: "transaction.created" });
    expect(first.count).toBe(5);
    expect(first.results.map((e) => e.summary)).toEqual([
      `${owner.username} added transaction 05`,
      `${owner.username} added transaction 04`,
    ]);
    expect(first.previous).toBeNull();
    const next = new URL(String(first.next));
    expect(next.pathname).toBe(`/api/v1/bank-accounts/${accountId}/activity/`);
    expect(next.searchParams.get("page")).toBe("2");
    expect(next.searchParams.get("page_size")).toBe("2");
    expect(next.searchParams.get("type")).toBe("transaction.created");

    // The links followed as a client would.
    const follow = async (link: string | null) => {
      const response = await t.inject({
        url: new URL(String(link)).pathname + new URL(String(link)).search,
        headers: { authorization: owner.bearer },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as Page;
    };
    const second = await follow(first.next);
    expect(second.results.map((e) => e.occurred_at)).toEqual([
      "2026-03-03T12:00:00.000Z",
      "2026-03-02T12:00:00.000Z",
    ]);
    expect(second.previous).toContain("page=1");
    const third = await follow(second.next);
    expect(third.results.map((e) => e.occurred_at)).toEqual(["2026-03-01T12:00:00.000Z"]);
    expect(third.next).toBeNull();

    const past = await list(owner, accountId, { page: 4, page_size: 2 });
    expect(past.statusCode).toBe(404);
    expect(past.json()).toEqual({ detail: "Invalid page.", code: "not_found" });
    // An account without events: an empty page, not a 404.
    expect(await page(owner, await account(owner))).toEqual({
      count: 0,
      next: null,
      previous: null,
      results: [],
    });
  });

  it("filters by type (repeated), by actor (any case) and by instants (inclusive)", async () => {
    const sam = await t.user();
    const kim = await t.user();
    const accountId = await account(sam, kim);
    const bySam = asUser(t.db, actorOf(sam));
    const byKim = asUser(t.db, actorOf(kim));
    await event(bySam, accountId, "budget.created", "created a budget", { at: "2026-04-01T10:00:00.000Z" });
    await event(byKim, accountId, "budget.updated", "changed a budget", { at: "2026-04-02T10:00:00.000Z" });
    await event(bySam, accountId, "transfer.created", "moved money", { at: "2026-04-03T10:00:00.000Z" });
    await event(internalContext(t.db, "scheduler"), accountId, "funding.completed", "funded 2 budgets", {
      at: "2026-04-04T10:00:00.000Z",
    });

    // One type, several (the query repeats the key), all of them.
    expect(await types(sam, accountId, { type: "budget.updated" })).toEqual(["budget.updated"]);
    expect(await types(sam, accountId, { type: ["budget.created", "funding.completed"] })).toEqual([
      "funding.completed",
      "budget.created",
    ]);
    const raw = await t.inject({
      url: `/api/v1/bank-accounts/${accountId}/activity/?type=transfer.created&type=budget.updated`,
      headers: { authorization: sam.bearer },
    });
    expect(raw.statusCode, raw.body).toBe(200);
    expect((raw.json() as Page).results.map((e) => e.type)).toEqual(["transfer.created", "budget.updated"]);
    expect(await types(sam, accountId, { type: "budget.deleted" })).toEqual([]);

    // The actor's username, in any case; the scheduler's events have none.
    expect(await types(sam, accountId, { actor: sam.username })).toEqual([
      "transfer.created",
      "budget.created",
    ]);
    expect(await types(kim, accountId, { actor: sam.username.toUpperCase() })).toEqual([
      "transfer.created",
      "budget.created",
    ]);
    expect(await types(sam, accountId, { actor: kim.username })).toEqual(["budget.updated"]);
    expect(await types(sam, accountId, { actor: "nobody@example.com" })).toEqual([]);

    // Instants, both ends inclusive, combined with the other filters.
    const at = (d: string) => `2026-04-0${d}T10:00:00Z`;
    expect(await types(sam, accountId, { occurred_after: at("2") })).toEqual([
      "funding.completed",
      "transfer.created",
      "budget.updated",
    ]);
    expect(await types(sam, accountId, { occurred_before: at("2") })).toEqual([
      "budget.updated",
      "budget.created",
    ]);
    expect(await types(sam, accountId, { occurred_after: at("2"), occurred_before: at("3") })).toEqual([
      "transfer.created",
      "budget.updated",
    ]);
    // A millisecond either side leaves the bound's own event out.
    expect(
      await types(sam, accountId, {
        occurred_after: "2026-04-02T10:00:00.001Z",
        occurred_before: "2026-04-03T09:59:59.999Z",
      }),
    ).toEqual([]);
    // An offset names the same instant: 12:00+02:00 is 10:00Z.
    expect(await types(sam, accountId, { occurred_before: "2026-04-01T12:00:00+02:00" })).toEqual([
      "budget.created",
    ]);
    const combined = await page(sam, accountId, {
      actor: sam.username,
      type: ["budget.created", "transfer.created", "budget.updated"],
      occurred_after: at("2"),
    });
    expect(combined.count).toBe(1);
    expect(combined.results.map((e) => e.type)).toEqual(["transfer.created"]);
  });

  it("reads a bare date as the account's local day (its first owner's zone), for every co-owner", async () => {
    const owner = await t.user({ timeZone: "Asia/Tokyo" });
    const coOwner = await t.user(); // UTC: the account's calendar is still Tokyo's.
    const accountId = await account(owner, coOwner);
    const ctx = asUser(t.db, actorOf(owner));
    // Tokyo is UTC+9: 15:00Z is local midnight.
    const instants = {
      "9th 23:59:59": "2026-03-09T14:59:59.999Z",
      "10th 00:00": "2026-03-09T15:00:00.000Z",
      "10th 23:59:59": "2026-03-10T14:59:59.999Z",
      "11th 00:00": "2026-03-10T15:00:00.000Z",
    };
    for (const [says, at] of Object.entries(instants))
      await event(ctx, accountId, "transaction.created", `added a transaction at ${says}`, { at });
    const when = async (who: typeof owner, query: Query) =>
      (await page(who, accountId, query)).results.map((e) => e.occurred_at);

    for (const who of [owner, coOwner]) {
      // The 10th in Tokyo, both bounds bare: its whole local day, though UTC's 10th is another.
      expect(await when(who, { occurred_after: "2026-03-10", occurred_before: "2026-03-10" })).toEqual([
        instants["10th 23:59:59"],
        instants["10th 00:00"],
      ]);
      // A bare start is the start of that local day; a bare end takes in the whole of it.
      expect(await when(who, { occurred_after: "2026-03-10" })).toEqual([
        instants["11th 00:00"],
        instants["10th 23:59:59"],
        instants["10th 00:00"],
      ]);
      expect(await when(who, { occurred_before: "2026-03-09" })).toEqual([instants["9th 23:59:59"]]);
      // A wall-clock time without offset is Tokyo's too.
      expect(await when(who, { occurred_after: "2026-03-10T23:59:59.999" })).toEqual([
        instants["11th 00:00"],
        instants["10th 23:59:59"],
      ]);
    }
    // With Z the instant itself: from 15:00Z on the 9th.
    expect(
      await when(coOwner, { occurred_after: "2026-03-09T15:00:00Z", occurred_before: "2026-03-10" }),
    ).toEqual([instants["10th 23:59:59"], instants["10th 00:00"]]);
  });

  it("shows a co-owner the other owners' events, refuses strangers and unknown ids with 404, allows API keys", async () => {
    const owner = await t.user();
    const coOwner = await t.user();
    const stranger = await t.user();
    const accountId = await account(owner, coOwner);
    await event(asUser(t.db, actorOf(owner)), accountId, "budget.created", "created a budget");
    await event(asUser(t.db, actorOf(coOwner)), accountId, "budget.archived", "archived a budget");

    const seen = await page(owner, accountId);
    expect(seen.results.map((e) => e.actor.username)).toEqual([coOwner.username, owner.username]);
    expect(await page(coOwner, accountId)).toEqual(seen);
    expect(await page(await t.apiKey(owner), accountId)).toEqual(seen);
    expect(await page(await t.apiKey(coOwner, "reader"), accountId)).toEqual(seen);

    // A malformed id is an unknown one, as on every path of the API.
    for (const response of [
      await list(stranger, accountId),
      await list(await t.apiKey(stranger), accountId),
      await list(owner, randomUUID()),
      await t.as(owner).callUnchecked(activityRoutes.list, { id: "not-a-uuid" }),
    ]) {
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json()).toMatchObject({ code: "not_found" });
    }
    expect((await list(null, accountId)).statusCode).toBe(401);
  });

  it("refuses an unknown type, a bad date or a bad page with 400 on that parameter", async () => {
    const owner = await t.user();
    const accountId = await account(owner);
    for (const [query, key] of [
      [{ type: "budget.exploded" }, "type"],
      [{ type: ["budget.created", "budget.exploded"] }, "type"],
      [{ occurred_after: "yesterday" }, "occurred_after"],
      [{ occurred_before: "2026-02-30" }, "occurred_before"],
      [{ page_size: "0" }, "page_size"],
      [{ page: "two" }, "page"],
    ] as const) {
      const response = await t.as(owner).callUnchecked(activityRoutes.list, { id: accountId, ...query });
      expect(response.statusCode, JSON.stringify(query)).toBe(400);
      expect(Object.keys(response.json()), JSON.stringify(query)).toEqual([key]);
    }
  });

  it("names the actor: a user, an API key (its uuid, name and prefix), the scheduler, the system", async () => {
    const owner = await t.user();
    const accountId = await account(owner);
    const created = await t.as(owner).call(apiKeyRoutes.create, { name: "bank sync" });
    expect(created.statusCode, created.body).toBe(201);
    const key = created.json();
    const apiKey = { uuid: key.uuid, name: key.name, prefix: key.prefix };
    const byKey = asUser(t.db, { ...actorOf(owner), credential: "api_key", apiKey });

    const user = await event(asUser(t.db, actorOf(owner)), accountId, "budget.created", "created a budget");
    const machine = await event(byKey, accountId, "import.synced", "imported 3 transactions");
    const scheduler = await event(
      internalContext(t.db, "scheduler"),
      accountId,
      "funding.completed",
      "funded 1 budget",
    );
    const system = await event(internalContext(t.db, "cli"), accountId, "budget.updated", "changed a budget");

    const events = (await page(owner, accountId)).results;
    expect(events.map((e) => ({ actor: e.actor, summary: e.summary, request_id: e.request_id }))).toEqual([
      {
        actor: { kind: "system", username: null, api_key: null },
        summary: "Allot changed a budget",
        request_id: system.requestId,
      },
      {
        actor: { kind: "scheduler", username: null, api_key: null },
        summary: "The scheduler funded 1 budget",
        request_id: scheduler.requestId,
      },
      {
        actor: { kind: "api_key", username: owner.username, api_key: apiKey },
        summary: `${owner.username} imported 3 transactions`,
        request_id: machine.requestId,
      },
      {
        actor: { kind: "user", username: owner.username, api_key: null },
        summary: `${owner.username} created a budget`,
        request_id: user.requestId,
      },
    ]);
    expect(apiKey.uuid).toMatch(UUID);
    expect(apiKey.prefix.length).toBeGreaterThan(0);
    // The key's owner is the actor the filter matches; the scheduler and the system have no name.
    expect(await types(owner, accountId, { actor: owner.username })).toEqual([
      "import.synced",
      "budget.created",
    ]);
  });
});
