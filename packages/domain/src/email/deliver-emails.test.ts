import type { DatabaseHandle } from "@allot/db/create-database";
import { emailOutbox } from "@allot/db/schema/email-outbox";
import { openTestDatabase, testEngines } from "@allot/db/testing/test-databases";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { testVault as vault } from "../../test/testing/test-vault";
import { isSealed, secretVault } from "../secrets/secret-vault";
import { internalContext } from "../shared/use-case-context";
import { deliverDueEmails } from "./deliver-emails";
import { enqueueEmail } from "./enqueue-email";
import type { EmailToSend, MailTransport, OutgoingEmail } from "./outgoing-email";

const message = (to: string): OutgoingEmail => ({
  kind: "password_changed",
  to,
  subject: `Hello ${to}`,
  text: "Plain",
  html: "<p>Rich</p>",
});

/** Records each send; fails the given addresses' first `failures` attempts. */
function recordingTransport(failing: Record<string, number> = {}) {
  const sent: EmailToSend[] = [];
  const attempts = new Map<string, number>();
  const transport: MailTransport = {
    async send(m) {
      const n = (attempts.get(m.to) ?? 0) + 1;
      attempts.set(m.to, n);
      if (n <= (failing[m.to] ?? 0)) throw new Error(`provider down (${n})`);
      await new Promise((resolve) => setTimeout(resolve, 1));
      sent.push(m);
    },
  };
  return { transport, sent, attempts };
}

describe.each(testEngines())("the email outbox (%s)", (engine) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase(engine);
  });
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(async () => {
    await database.db.delete(emailOutbox);
  });

  /** The scheduler's context, as of now or of the given instant. */
  const scheduled = (now = new Date()) => ({ ...internalContext(database.db, "scheduler"), now });

  const enqueue = (...addresses: string[]) =>
    database.db.transaction(async (tx) => {
      for (const to of addresses) await enqueueEmail(tx, message(to), { vault });
    });

  it("retries a failed message with backoff and delivers it once; the others go at once", async () => {
    await enqueue("a@example.com", "b@example.com", "c@example.com");
    const { transport, sent, attempts } = recordingTransport({ "a@example.com": 2 });
    const t0 = Date.now();
    const at = (ms: number) => scheduled(new Date(t0 + ms));

    expect(await deliverDueEmails(at(0), { transport, vault })).toEqual({ sent: 2, failed: 1 });
    expect(await deliverDueEmails(at(10_000), { transport, vault })).toEqual({ sent: 0, failed: 0 });
    expect(await deliverDueEmails(at(31_000), { transport, vault })).toEqual({ sent: 0, failed: 1 });
    expect(await deliverDueEmails(at(60_000), { transport, vault })).toEqual({ sent: 0, failed: 0 });
    expect(await deliverDueEmails(at(92_000), { transport, vault })).toEqual({ sent: 1, failed: 0 });
    expect(await deliverDueEmails(at(999_000), { transport, vault })).toEqual({ sent: 0, failed: 0 });

    expect(sent.map((m) => m.to)).toEqual(["b@example.com", "c@example.com", "a@example.com"]);
    // Sealed while queued (decision 0049), opened for the transport only.
    expect(sent.map((m) => [m.text, m.html])).toEqual(Array(3).fill(["Plain", "<p>Rich</p>"]));
    expect(attempts.get("a@example.com")).toBe(3);
    const [row] = await database.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, "a@example.com"));
    // Delivered: the body (and the credentials its links may carry) is not kept.
    expect(row).toMatchObject({
      attempts: 3,
      lastError: "provider down (2)",
      textBody: null,
      htmlBody: null,
    });
    expect(row?.sentAt).not.toBeNull();
  });

  it("keeps a queued message's bodies sealed, and fails one it cannot open like a refused send", async () => {
    await enqueue("sealed@example.com");
    const [queued] = await database.db.select().from(emailOutbox);
    expect(isSealed(queued?.textBody ?? null) && isSealed(queued?.htmlBody ?? null)).toBe(true);
    expect(queued?.subject).toBe("Hello sealed@example.com");
    const { transport, sent } = recordingTransport();
    const otherKey = secretVault({ key: "another key of at least thirty-two characters", previousKey: null });
    expect(await deliverDueEmails(scheduled(), { transport, vault: otherKey })).toEqual({
      sent: 0,
      failed: 1,
    });
    expect(sent).toEqual([]);
    const [kept] = await database.db.select().from(emailOutbox);
    expect(kept).toMatchObject({ sentAt: null, textBody: queued?.textBody, htmlBody: queued?.htmlBody });
    expect(kept?.lastError).toContain("not hold");
  });

  it("sends nothing for a change that rolled back", async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await enqueueEmail(tx, message("gone@example.com"), { vault });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    const { transport, sent } = recordingTransport();
    await deliverDueEmails(scheduled(), { transport, vault });
    expect(sent).toEqual([]);
  });

  it("never sends one message twice when two senders run at once", async () => {
    const addresses = Array.from({ length: 120 }, (_, i) => `many${i}@example.com`);
    await enqueue(...addresses);
    const { transport, sent } = recordingTransport();
    const reports = await Promise.all([
      deliverDueEmails(scheduled(), { transport, vault }),
      deliverDueEmails(scheduled(), { transport, vault }),
    ]);
    expect(reports[0].sent + reports[1].sent).toBe(120);
    expect(sent.map((m) => m.to).sort()).toEqual([...addresses].sort());
  });
});
