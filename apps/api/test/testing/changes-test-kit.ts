import { allocationRoutes } from "@allot/contract/allocations/routes";
import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { budgetRoutes } from "@allot/contract/budgets/routes";
import type { Change, ChangesPage } from "@allot/contract/changes/change";
import { changeRoutes } from "@allot/contract/changes/routes";
import { fundingOccurrenceRoutes } from "@allot/contract/funding-occurrences/routes";
import { internalTransactionRoutes } from "@allot/contract/internal-transactions/routes";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { expect } from "vitest";
import type { TestApp } from "./test-app";
import type { Caller } from "./test-client";

/** A copy of an account kept from the feed: `type:id` to the object. */
export type Replica = Map<string, unknown>;

const keyOf = (type: string, id: string) => `${type}:${id}`;

/** Applies changes to a replica the way docs/spec/extensions.md §2 tells a client to. */
export function applyChanges(replica: Replica, changes: Change[]) {
  for (const change of changes) {
    const key = keyOf(change.type, change.id);
    if (change.deleted) replica.delete(key);
    else replica.set(key, change.object);
  }
  return replica;
}

// Fields that move with the calendar alone: §2 lets them change without a change.
const CALENDAR_FIELDS = ["next_funding", "next_recurrence", "funding_pace"];
const withoutCalendar = (type: string, object: unknown) =>
  type === "budget"
    ? Object.fromEntries(
        Object.entries(object as object).filter(([field]) => !CALENDAR_FIELDS.includes(field)),
      )
    : object;

/** A replica in a form `toEqual` compares: sorted keys, calendar fields left out. */
export const comparable = (replica: Replica) =>
  Object.fromEntries(
    [...replica.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([key, object]) => [key, withoutCalendar(key.split(":")[0] as string, object)]),
  );

/** The change-feed tests' calls: pages, following a cursor to the end, and the GETs to compare with. */
export function changesKit(t: TestApp) {
  async function page(who: Caller, accountId: string, query: { since?: string; page_size?: number } = {}) {
    const response = await t.as(who).call(changeRoutes.list, { id: accountId, ...query });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as ChangesPage;
  }

  /** Every page from `since` (from the start without it) until has_more is false. */
  async function follow(who: Caller, accountId: string, since?: string, pageSize?: number) {
    const changes: Change[] = [];
    let cursor = since;
    let pages = 0;
    for (;;) {
      const next = await page(who, accountId, {
        ...(cursor === undefined ? {} : { since: cursor }),
        ...(pageSize === undefined ? {} : { page_size: pageSize }),
      });
      changes.push(...next.changes);
      cursor = next.cursor;
      pages += 1;
      if (!next.has_more) return { changes, cursor, pages };
    }
  }

  /** Every page of a list route, filtered to the account. */
  async function listAll<T extends { id: string }>(
    who: Caller,
    route: Parameters<ReturnType<TestApp["as"]>["call"]>[0],
    accountId: string,
  ): Promise<T[]> {
    const items: T[] = [];
    for (let pageNumber = 1; ; pageNumber += 1) {
      const response = await t
        .as(who)
        .callUnchecked(route, { bank_account: accountId, page: pageNumber, page_size: 500 });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json<{ results: T[]; next: string | null }>();
      items.push(...body.results);
      if (!body.next) return items;
    }
  }

  /** The account as the GETs give it now, keyed like a replica. */
  async function liveObjects(who: Caller, accountId: string): Promise<Replica> {
    const live: Replica = new Map();
    const account = await t.as(who).call(bankAccountRoutes.get, { id: accountId });
    expect(account.statusCode, account.body).toBe(200);
    live.set(keyOf("bank_account", accountId), account.json());
    const lists = [
      ["budget", budgetRoutes.list],
      ["transaction", transactionRoutes.list],
      ["allocation", allocationRoutes.list],
      ["internal_transaction", internalTransactionRoutes.list],
      ["funding_occurrence", fundingOccurrenceRoutes.list],
    ] as const;
    for (const [type, route] of lists)
      for (const object of await listAll(who, route, accountId)) live.set(keyOf(type, object.id), object);
    return live;
  }

  return { page, follow, liveObjects };
}
