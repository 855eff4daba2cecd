import type { DatabaseHandle } from "@allot/db/create-database";
import { idempotencyKeys } from "@allot/db/schema/idempotency-keys";
import { openTestDatabase, testEngines } from "@allot/db/testing/test-databases";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anOwner } from "../../test/testing/fixtures";
import { internalContext } from "../shared/use-case-context";
import { purgeExpiredIdempotencyKeys } from "./purge-expired-keys";

describe.each(testEngines())("purging expired idempotency keys (%s)", (engine) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase(engine);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("deletes the records past their expiry and keeps the live ones", async () => {
    const { db } = database;
    const owner = await anOwner(db);
    const now = new Date();
    const record = (key: string, expiresAt: Date) => ({
      userId: owner.actor.userId,
      key,
      fingerprint: "0".repeat(64),
      status: 201,
      body: "{}",
      createdAt: new Date(expiresAt.getTime() - 86_400_000),
      expiresAt,
    });
    await db
      .insert(idempotencyKeys)
      .values([
        record("expired", new Date(now.getTime() - 1)),
        record("expires-now", now),
        record("live", new Date(now.getTime() + 60_000)),
      ]);
    expect(await purgeExpiredIdempotencyKeys({ ...internalContext(db, "scheduler"), now })).toBe(2);
    const left = await db
      .select({ key: idempotencyKeys.key })
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.userId, owner.actor.userId));
    expect(left).toEqual([{ key: "live" }]);
  });
});
