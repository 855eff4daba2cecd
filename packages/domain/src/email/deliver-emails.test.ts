import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DatabaseHandle } from "@allot/db/create-database";
import { emailOutbox } from "@allot/db/schema/email-outbox";
import { openTestDatabase, testEngines } from "@allot/db/testing/test-databases";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { internalContext } from "../shared/use-case-context";
import { deliverDueEmails } from "./deliver-emails";
import { enqueueEmail } from "./enqueue-email";
import { fileTransport } from "./mail-transports";
import type { EmailToSend, MailTransport } from "./outgoing-email";

const message = (to: string) => ({
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
      for (const to of addresses) await enqueueEmail(tx, message(to));
    });

  it("retries a failed message with backoff and delivers it once; the others go at once", async () => {
    await enqueue("a@example.com", "b@example.com", "c@example.com");
    const { transport, sent, attempts } = recordingTransport({ "a@example.com": 2 });
    const t0 = Date.now();
    const at = (ms: number) => scheduled(new Date(t0 + ms));

    expect(await deliverDueEmails(at(0), { transport })).toEqual({ sent: 2, failed: 1 });
    expect(await deliverDueEmails(at(10_000), { transport })).toEqual({ sent: 0, failed: 0 });
    expect(await deliverDueEmails(at(31_000), { transport })).toEqual({ sent: 0, failed: 1 });
    expect(await deliverDueEmails(at(60_000), { transport })).toEqual({ sent: 0, failed: 0 });
    expect(await deliverDueEmails(at(92_000), { transport })).toEqual({ sent: 1, failed: 0 });
    expect(await deliverDueEmails(at(999_000), { transport })).toEqual({ sent: 0, failed: 0 });

    expect(sent.map((m) => m.to)).toEqual(["b@example.com", "c@example.com", "a@example.com"]);
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

  it("sends nothing for a change that rolled back", async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await enqueueEmail(tx, message("gone@example.com"));
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    const { transport, sent } = recordingTransport();
    await deliverDueEmails(scheduled(), { transport });
    expect(sent).toEqual([]);
  });

  it("never sends one message twice when two senders run at once", async () => {
    const addresses = Array.from({ length: 120 }, (_, i) => `many${i}@example.com`);
    await enqueue(...addresses);
    const { transport, sent } = recordingTransport();
    const reports = await Promise.all([
      deliverDueEmails(scheduled(), { transport }),
      deliverDueEmails(scheduled(), { transport }),
    ]);
    expect(reports[0].sent + reports[1].sent).toBe(120);
    expect(sent.map((m) => m.to).sort()).toEqual([...addresses].sort());
  });

  it("writes each message as one JSON file with the fields operations.md lists", async () => {
    const directory = await mkdtemp(join(tmpdir(), "allot-mail-"));
    try {
      await enqueue("file@example.com");
      await deliverDueEmails(scheduled(), {
        transport: fileTransport(directory, "Allot <noreply@allot.test>"),
      });
      const [name, ...others] = await readdir(directory);
      expect(others).toEqual([]);
      const record = JSON.parse(await readFile(join(directory, name as string), "utf8"));
      expect(record).toMatchObject({
        to: "file@example.com",
        from: "Allot <noreply@allot.test>",
        subject: "Hello file@example.com",
        text: "Plain",
        html: "<p>Rich</p>",
        kind: "password_changed",
      });
      expect(Date.parse(record.created_at)).toBeGreaterThan(Date.now() - 60_000);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
