import type { DatabaseHandle } from "@allot/db/create-database";
import { accountEvents } from "@allot/db/schema/account-events";
import { openTestDatabase, testEngines } from "@allot/db/testing/test-databases";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exampleChange } from "../../test/testing/event-examples";
import { anAccount, anOwner } from "../../test/testing/fixtures";
import { recordEvent } from "../events/record-event";
import { internalContext } from "../shared/use-case-context";
import { ACTIVITY_RETENTION_DAYS, purgeOldActivity } from "./purge-old-activity";

const DAY_MS = 86_400_000;

describe.each(testEngines())("purging old activity (%s)", (engine) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase(engine);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("deletes the events older than the retention and keeps the rest", async () => {
    const { db } = database;
    const owner = await anOwner(db);
    const account = await anAccount(db, owner.actor);
    const now = new Date();
    const daysAgo = (days: number) => new Date(now.getTime() - days * DAY_MS);
    const at = (when: Date) =>
      db.transaction((tx) =>
        recordEvent(
          tx,
          { ...internalContext(db, "scheduler"), now: when },
          exampleChange(account.id, "funding.completed", "funded 1 budget"),
        ),
      );
    const expired = await at(daysAgo(ACTIVITY_RETENTION_DAYS + 1));
    const kept = [await at(daysAgo(ACTIVITY_RETENTION_DAYS - 1)), await at(now)];

    expect(await purgeOldActivity({ ...internalContext(db, "scheduler"), now })).toBe(1);
    const left = await db
      .select({ id: accountEvents.id })
      .from(accountEvents)
      .where(eq(accountEvents.bankAccountId, account.id));
    expect(left.map((row) => row.id)).not.toContain(expired);
    expect(left.map((row) => row.id)).toEqual(expect.arrayContaining(kept));
    expect(await purgeOldActivity({ ...internalContext(db, "scheduler"), now })).toBe(0);
  });
});
