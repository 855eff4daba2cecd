import type { DatabaseHandle } from "@allot/db/create-database";
import { emailOutbox } from "@allot/db/schema/email-outbox";
import { openTestDatabase, testEngines } from "@allot/db/testing/test-databases";
import { deliverDueEmails } from "@allot/domain/email/deliver-emails";
import { enqueueEmail } from "@allot/domain/email/enqueue-email";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { openedOutboxRow } from "@allot/domain/testing/opened-outbox-row";
import { testVault as vault } from "@allot/domain/testing/test-vault";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ReceivedMail,
  smtpRefusal,
  startTestSmtpServer,
  type TestSmtpServer,
} from "../test/testing/test-smtp-server";
import { mailTransportFor } from "./mail-transport-for";

const PASSWORD = "outbox-s3cret";

/** The outbox as the server runs it, sending through MAIL_TRANSPORT=smtp to a real SMTP server. */
describe.each(testEngines())("the email outbox over SMTP (%s)", (engine) => {
  let database: DatabaseHandle;
  let smtp: TestSmtpServer;
  let refusals = 1;
  beforeAll(async () => {
    database = await openTestDatabase(engine);
    smtp = await startTestSmtpServer({
      disabledCommands: ["STARTTLS"],
      allowInsecureAuth: true,
      onAuth: (auth, _session, callback) =>
        auth.password === PASSWORD
          ? callback(null, { user: auth.username })
          : callback(smtpRefusal(535, "No")),
      onRcptTo: (_address, _session, callback) =>
        callback(refusals-- > 0 ? smtpRefusal(451, "Greylisted, try again later") : null),
    });
  });
  afterAll(async () => {
    await smtp?.close();
    await database?.close();
  });

  it("delivers a queued email, retrying it after the server refused the first attempt", async () => {
    const transport = mailTransportFor({
      transport: "smtp",
      from: "Allot <noreply@allot.test>",
      url: `smtp://allot:${PASSWORD}@127.0.0.1:${smtp.port}`,
    });
    try {
      await database.db.transaction((tx) =>
        enqueueEmail(
          tx,
          {
            kind: "password_changed",
            to: "sam@example.com",
            subject: "Your password changed",
            text: "Plain",
            html: "<p>Rich</p>",
          },
          { vault },
        ),
      );
      const t0 = Date.now();
      const at = (ms: number) => ({ ...internalContext(database.db, "scheduler"), now: new Date(t0 + ms) });

      expect(await deliverDueEmails(at(0), { transport, vault })).toEqual({ sent: 0, failed: 1 });
      const [refused] = await database.db.select().from(emailOutbox);
      // Kept, sealed (decision 0049), for the next attempt.
      expect(refused?.textBody).not.toContain("Plain");
      expect(refused && openedOutboxRow(refused)).toMatchObject({
        attempts: 1,
        sentAt: null,
        textBody: "Plain",
      });
      expect(refused?.lastError).toContain("451 Greylisted, try again later");
      expect(refused?.lastError).not.toContain(PASSWORD);
      expect(smtp.received).toEqual([]);

      // Not due again before its backoff (30 s) has passed; then it goes.
      expect(await deliverDueEmails(at(10_000), { transport, vault })).toEqual({ sent: 0, failed: 0 });
      expect(await deliverDueEmails(at(31_000), { transport, vault })).toEqual({ sent: 1, failed: 0 });

      expect(smtp.received).toHaveLength(1);
      const [{ mail, user }] = smtp.received as [ReceivedMail];
      expect(user).toBe("allot");
      expect(mail.to).toMatchObject({ value: [{ address: "sam@example.com" }] });
      expect(mail.subject).toBe("Your password changed");
      expect(mail.html).toBe("<p>Rich</p>");
      expect(mail.messageId).toBe(`<allot-email.${refused?.id}@allot.test>`);
      const [sent] = await database.db.select().from(emailOutbox);
      expect(sent).toMatchObject({ attempts: 2, textBody: null, htmlBody: null });
      expect(sent?.sentAt).not.toBeNull();
    } finally {
      await transport.close?.();
    }
  });
});
