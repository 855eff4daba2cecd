import type { DatabaseHandle } from "@allot/db/create-database";
import { webhookDeliveries } from "@allot/db/schema/webhooks";
import { openTestDatabase, testEngines } from "@allot/db/testing/test-databases";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exampleChange } from "../../test/testing/event-examples";
import { anAccount, anOwner } from "../../test/testing/fixtures";
import { testVault } from "../../test/testing/test-vault";
import { asUser } from "../../test/testing/use-case-context";
import { recordEvent } from "../events/record-event";
import { internalContext } from "../shared/use-case-context";
import { createWebhook } from "./create-webhook";
import { DELIVERY_RETENTION_DAYS, purgeOldDeliveries } from "./purge-old-deliveries";

const DAY_MS = 86_400_000;

describe.each(testEngines())("purging old webhook deliveries (%s)", (engine) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase(engine);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("deletes finished deliveries older than the retention, and keeps pending ones whatever their age", async () => {
    const { db } = database;
    const owner = await anOwner(db);
    const account = await anAccount(db, owner.actor);
    const hook = await createWebhook(
      {
        ...asUser(db, owner.actor),
        services: { webhookPolicy: { allowHttp: false, allowPrivate: true }, vault: testVault },
      },
      { url: "https://hooks.example.com/purge", event_types: ["*"] },
    );
    const now = new Date();
    /** One event `days` ago, its delivery left `status`: the delivery's id. */
    const delivery = async (days: number, status: "pending" | "succeeded" | "failed") => {
      const eventId = await db.transaction((tx) =>
        recordEvent(
          tx,
          { ...internalContext(db, "scheduler"), now: new Date(now.getTime() - days * DAY_MS) },
          exampleChange(account.id, "funding.completed", "funded 1 budget"),
        ),
      );
      const [row] = await db
        .update(webhookDeliveries)
        .set({ status })
        .where(eq(webhookDeliveries.eventId, eventId))
        .returning({ id: webhookDeliveries.id });
      if (!row) throw new Error("no delivery queued");
      return row.id;
    };
    const old = DELIVERY_RETENTION_DAYS + 1;
    await delivery(old, "succeeded");
    await delivery(old, "failed");
    const kept = [
      await delivery(old, "pending"),
      await delivery(DELIVERY_RETENTION_DAYS - 1, "succeeded"),
      await delivery(0, "failed"),
    ];

    expect(await purgeOldDeliveries({ ...internalContext(db, "scheduler"), now })).toBe(2);
    const left = (
      await db
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.webhookId, hook.id))
    ).map((row) => row.id);
    expect(left.sort()).toEqual(kept.sort());
    expect(await purgeOldDeliveries({ ...internalContext(db, "scheduler"), now })).toBe(0);
  });
});
