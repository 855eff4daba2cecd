import type { Change, ChangesPage } from "@allot/contract/changes/change";
import type { changeRoutes } from "@allot/contract/changes/routes";
import { DEFAULT_PAGE_SIZE } from "@allot/contract/http/fields";
import type { RouteInput } from "@allot/contract/http/route";
import { changeCounters } from "@allot/db/schema/change-counters";
import { eq } from "drizzle-orm";
import { findOwnedAccount } from "../account-access/find-owned-account";
import { Gone, ValidationFailed } from "../shared/errors";
import type { UseCaseContext } from "../shared/use-case-context";
import { decodeCursor, encodeCursor, FEED_START, type FeedPosition } from "./change-cursor";
import { byFeedOrder, type ChangeEntry, FEED_SOURCES, tombstonesAfter } from "./change-sources";

/**
 * GET /bank-accounts/{id}/changes/ (docs/spec/extensions.md §2, docs/decisions/0035): the account's
 * objects changed or deleted after `since` (without it, every live object), each once in its
 * latest state, in the order of its last change. One repeatable-read snapshot answers the whole
 * page, so the entries, their objects and the cursor agree; every write numbered up to the
 * account's counter in that snapshot has committed (numbers are taken under the account's lock),
 * so a page that reaches the end may answer the counter itself as its cursor.
 */
export async function listChanges(
  { db, actor, services }: UseCaseContext<"publicBaseUrl">,
  { id, since, page_size }: RouteInput<typeof changeRoutes.list>,
): Promise<ChangesPage> {
  const size = page_size ?? DEFAULT_PAGE_SIZE;
  return db.transaction(
    async (tx) => {
      const account = await findOwnedAccount(tx, actor, id);
      const [counter] = await tx
        .select()
        .from(changeCounters)
        .where(eq(changeCounters.bankAccountId, account.id));
      const { lastChange, purgedThrough } = counter ?? { lastChange: 0, purgedThrough: 0 };
      const position = since === undefined ? FEED_START : decodeCursor(since, account.id);
      if (position.changeSeq > lastChange)
        throw ValidationFailed.on(
          "since",
          "Not a cursor of this account's changes; start again without `since`.",
        );
      if (since !== undefined && isExpired(position, purgedThrough))
        throw new Gone(
          "Deletions after this cursor are no longer kept; sync again from the start without `since`.",
          "cursor_expired",
        );

      const entries: ChangeEntry[] = [];
      for (const source of Object.values(FEED_SOURCES))
        entries.push(...(await source.after(tx, account.id, position, size + 1)));
      // A full snapshot lists the living; deletions matter from a cursor on.
      if (since !== undefined) entries.push(...(await tombstonesAfter(tx, account.id, position, size + 1)));
      entries.sort(byFeedOrder);
      const page = entries.slice(0, size);
      const hasMore = entries.length > size;

      const objects = new Map<string, unknown>();
      for (const [type, source] of Object.entries(FEED_SOURCES)) {
        const ids = page.filter((entry) => entry.type === type && !entry.deleted).map((entry) => entry.id);
        if (ids.length > 0)
          for (const [id, view] of await source.load(tx, ids, services)) objects.set(`${type}:${id}`, view);
      }
      const last = page[page.length - 1];
      return {
        cursor: encodeCursor(
          account.id,
          hasMore && last
            ? { changeSeq: last.changeSeq, type: last.type, id: last.id }
            : { changeSeq: lastChange },
        ),
        has_more: hasMore,
        changes: page.map(
          (entry) =>
            ({
              type: entry.type,
              id: entry.id,
              deleted: entry.deleted,
              object: entry.deleted ? null : objects.get(`${entry.type}:${entry.id}`),
            }) as Change,
        ),
      };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

/**
 * Deletions numbered up to `purgedThrough` are gone: a cursor before that number may have missed
 * one. A cursor inside that very number (a page that ended mid-number) may too.
 */
const isExpired = (position: FeedPosition, purgedThrough: number) =>
  position.changeSeq < purgedThrough || (position.changeSeq === purgedThrough && position.type !== undefined);
