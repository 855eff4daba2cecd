import { changeRoutes } from "@allot/contract/changes/routes";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { purgeOldTombstones } from "@allot/domain/changes/purge-old-tombstones";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { describe, expect, it } from "vitest";
import { changesKit } from "../../../test/testing/changes-test-kit";
import { anAccount, aTransaction } from "../../../test/testing/fixtures";
import { useTestApp } from "../../../test/testing/test-app";

const RETENTION_DAYS = 90;
const DAY_MS = 86_400_000;

/** The change feed's refusals: whose feed, which cursors, which page sizes. */
describe.each(testEngines())("the change feed refuses (%s)", (engine) => {
  const t = useTestApp(engine);
  const feed = changesKit(t);
  const purgeAsOf = (now: Date) =>
    purgeOldTombstones({ ...internalContext(t.db, "scheduler"), now }, RETENTION_DAYS);

  it("another user's account, and a missing one, alike: 404; the owner's API key reads it", async () => {
    const owner = await t.user();
    const stranger = await t.user();
    const account = await anAccount(t, owner);
    for (const id of [account.id, "00000000-0000-4000-8000-000000000000"]) {
      const response = await t.as(stranger).callUnchecked(changeRoutes.list, { id });
      expect(response.statusCode, response.body).toBe(404);
    }
    const page = await feed.page(await t.apiKey(owner), account.id);
    expect(page.changes.map((change) => change.type)).toEqual(["bank_account", "budget"]);
  });

  it("a cursor that is not one, another account's, or one no write has reached yet: 400 on since", async () => {
    const owner = await t.user();
    const account = await anAccount(t, owner);
    const other = await anAccount(t, owner);
    const { cursor } = await feed.page(owner, account.id);
    const { cursor: othersCursor } = await feed.page(owner, other.id);
    const forged = (fields: Record<string, unknown>) =>
      Buffer.from(JSON.stringify(fields)).toString("base64url");
    const decoded = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    for (const since of [
      "not a cursor",
      forged({ ...decoded, s: -1 }),
      forged({ ...decoded, s: 1.5 }),
      forged({ ...decoded, extra: true }),
      forged({ ...decoded, t: "budget" }), // a type without an id
      forged({ ...decoded, t: "user", i: account.id }),
      forged({ ...decoded, s: decoded.s + 1 }), // ahead of every write
      othersCursor,
      "x".repeat(513),
    ]) {
      const response = await t.as(owner).callUnchecked(changeRoutes.list, { id: account.id, since });
      expect(response.statusCode, `${since}: ${response.body}`).toBe(400);
      expect(Object.keys(response.json<Record<string, unknown>>())).toEqual(["since"]);
    }
  });

  it("a cursor older than the deletions kept: 410 cursor_expired; a full sync and newer cursors still work", async () => {
    const owner = await t.user();
    const account = await anAccount(t, owner);
    const doomed = await aTransaction(t, owner, account);
    const { cursor: beforeDelete } = await feed.follow(owner, account.id);
    expect((await t.as(owner).call(transactionRoutes.delete, { id: doomed.id })).statusCode).toBe(204);
    const { cursor: afterDelete } = await feed.follow(owner, account.id, beforeDelete);

    // Within the retention nothing goes, and the old cursor still sees the deletion.
    expect(await purgeAsOf(new Date(Date.now() + (RETENTION_DAYS - 1) * DAY_MS))).toBe(0);
    const kept = await feed.follow(owner, account.id, beforeDelete);
    expect(kept.changes.filter((change) => change.deleted).map((change) => change.id)).toContain(doomed.id);

    expect(await purgeAsOf(new Date(Date.now() + (RETENTION_DAYS + 1) * DAY_MS))).toBe(
      1 + doomed.allocations.length,
    );
    const expired = await t.as(owner).call(changeRoutes.list, { id: account.id, since: beforeDelete });
    expect(expired.statusCode, expired.body).toBe(410);
    expect(expired.json<{ code: string }>().code).toBe("cursor_expired");
    expect(
      (await t.as(owner).call(changeRoutes.list, { id: account.id, since: afterDelete })).statusCode,
    ).toBe(200);
    const fresh = await feed.follow(owner, account.id);
    expect(fresh.changes.map((change) => change.id)).not.toContain(doomed.id);
  });

  it("page_size: at least 1, and above 500 served as 500", async () => {
    const owner = await t.user();
    const account = await anAccount(t, owner);
    for (const page_size of [0, -1, "many"]) {
      const response = await t.as(owner).callUnchecked(changeRoutes.list, { id: account.id, page_size });
      expect(response.statusCode, response.body).toBe(400);
      expect(Object.keys(response.json<Record<string, unknown>>())).toEqual(["page_size"]);
    }
    const capped = await feed.page(owner, account.id, { page_size: 100_000 });
    expect(capped.has_more).toBe(false);
  });
});
