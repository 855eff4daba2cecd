import type { DatabaseHandle } from "@allot/db/create-database";
import { emailOutbox } from "@allot/db/schema/email-outbox";
import { notifications } from "@allot/db/schema/notifications";
import { channelPreferences, notificationPreferences } from "@allot/db/schema/preferences";
import { openTestDatabase, testEngines } from "@allot/db/testing/test-databases";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openedOutboxRow } from "../../test/testing/opened-outbox-row";
import { testVault as vault } from "../../test/testing/test-vault";
import { notifyUser } from "../events/record-notification";
import { internalContext } from "../shared/use-case-context";
import { createUser } from "../users/create-user";
import { deliverDigests, deliverImmediateNotifications } from "./deliver-notifications";

let counter = 0;

describe.each(testEngines())("notification delivery (%s)", (engine) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase(engine);
  });
  afterAll(async () => {
    await database?.close();
  });

  /** The scheduler's context, as of now or of the given instant. */
  const scheduled = (now = new Date()) => ({ ...internalContext(database.db, "scheduler"), now });

  async function user() {
    counter += 1;
    const email = `notify${counter}-${Date.now()}@example.com`;
    const row = await createUser(internalContext(database.db, "cli"), {
      email,
      password: "correct horse battery staple",
    });
    return { id: row.id, email };
  }
  const notify = (
    userId: number,
    kind: Parameters<typeof notifyUser>[2],
    payload: Record<string, unknown> = {},
  ) => database.db.transaction((tx) => notifyUser(tx, userId, kind, payload));
  const outboxTo = async (email: string) =>
    (await database.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, email))).map(
      openedOutboxRow,
    );
  const outcomes = async (userId: number) =>
    (await database.db.select().from(notifications).where(eq(notifications.userId, userId)))
      .map((n) => `${n.kind}:${n.outcome ?? "waiting"}`)
      .sort();

  it("emails immediate ones, suppresses those turned off, and leaves digest ones for their window", async () => {
    const sam = await user();
    await database.db.insert(notificationPreferences).values([
      { userId: sam.id, kind: "transaction_posted", deliveryMode: "off" },
      { userId: sam.id, kind: "invitation_accepted", deliveryMode: "digest" },
      // Cannot be suppressed: a stored "off" (not settable through the API) is ignored.
      { userId: sam.id, kind: "password_changed", deliveryMode: "off" },
    ]);
    await notify(sam.id, "transaction_posted", { count: 1 });
    await notify(sam.id, "balance_mismatch", { balance_mismatch: "-5.00" });
    await notify(sam.id, "password_changed");
    await notify(sam.id, "invitation_accepted", { invitee_email: "kim@example.com" });
    await notify(sam.id, "import_error", { error_count: 1, errors: {} });

    await deliverImmediateNotifications(scheduled(), { vault });
    expect(await outcomes(sam.id)).toEqual([
      "balance_mismatch:emailed",
      "import_error:waiting",
      "invitation_accepted:waiting",
      "password_changed:emailed",
      "transaction_posted:suppressed",
    ]);
    expect((await outboxTo(sam.email)).map((m) => m.kind).sort()).toEqual([
      "balance_mismatch",
      "password_changed",
    ]);
    // A second pass finds nothing more to do.
    await deliverImmediateNotifications(scheduled(), { vault });
    expect(await outboxTo(sam.email)).toHaveLength(2);
  });

  it("sends each user one digest at their window, in their time zone, and only what came before it", async () => {
    const kim = await user();
    await database.db
      .insert(channelPreferences)
      .values({ userId: kim.id, channel: "email", digestFrequency: "daily_evening" });
    await notify(kim.id, "import_error", { error_count: 2, errors: { amount: ["Bad."] } });
    await notify(kim.id, "funding_complete", { transfers: 3 });
    const [first] = await database.db.select().from(notifications).where(eq(notifications.userId, kim.id));
    const recordedAt = first?.createdAt as Date;

    // Two days on, a daily_evening window has passed since both were recorded: one digest holds both.
    const later = new Date(recordedAt.getTime() + 2 * 24 * 3_600_000);
    await deliverDigests(scheduled(later), { vault });
    const messages = await outboxTo(kim.email);
    expect(messages).toHaveLength(1);
    expect(messages[0]?.subject).toBe("Allot digest: 2 updates");
    expect(messages[0]?.textBody).toContain("amount: Bad.");
    expect(await outcomes(kim.id)).toEqual(["funding_complete:digested", "import_error:digested"]);
    await deliverDigests(scheduled(new Date(later.getTime() + 3 * 24 * 3_600_000)), { vault });
    expect(await outboxTo(kim.email)).toHaveLength(1);
  });

  it("waits for the window: a notification recorded after the latest window stays", async () => {
    const lee = await user();
    await notify(lee.id, "funding_complete", { transfers: 1 });
    // Right now the latest daily_morning window is in the past and the notification is newer.
    expect(await deliverDigests(scheduled(new Date()), { vault })).toBe(0);
    expect(await outcomes(lee.id)).toEqual(["funding_complete:waiting"]);
  });

  it("never emails one notification twice when two deliverers run at once", async () => {
    const ann = await user();
    for (let i = 0; i < 30; i++) await notify(ann.id, "balance_mismatch", { balance_mismatch: `${i}.00` });
    await Promise.all([
      deliverImmediateNotifications(scheduled(), { vault }),
      deliverImmediateNotifications(scheduled(), { vault }),
    ]);
    expect(await outboxTo(ann.email)).toHaveLength(30);
  });
});
