import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { DatabaseHandle } from "@allot/db/create-database";
import { openTestDatabase, testEngines } from "@allot/db/testing/test-databases";
import { enqueueEmail } from "@allot/domain/email/enqueue-email";
import { anAccount, anOwner } from "@allot/domain/testing/fixtures";
import { testVault as vault } from "@allot/domain/testing/test-vault";
import { asUser } from "@allot/domain/testing/use-case-context";
import { createWebhook } from "@allot/domain/webhooks/create-webhook";
import { recordingLog } from "@allot/logging/testing/recording-log";
import { mailTransportFor } from "@allot/mail/mail-transport-for";
import { smtpRefusal, startTestSmtpServer, type TestSmtpServer } from "@allot/mail/testing/test-smtp-server";
import { httpWebhookPoster } from "@allot/webhook-poster/http-webhook-poster";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmailDelivery } from "./email-delivery";
import { startWebhookDelivery } from "./webhook-delivery";

async function until(check: () => boolean, what: string, logged: () => string) {
  for (let waited = 0; !check(); waited += 50) {
    if (waited > 20_000) throw new Error(`no ${what} within 20 s; logged:\n${logged()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A failed webhook attempt and a failed email send each log a warning saying what failed and why,
 * through the process's real logger: never the webhook's secret or URL path and query, never the
 * email's recipient, links or body.
 */
describe.each(testEngines())("warnings on failed deliveries (%s)", (engine) => {
  let database: DatabaseHandle;
  let receiver: Server;
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    database = await openTestDatabase(engine);
    // A receiver that is down for maintenance, and a mail server that refuses every recipient.
    receiver = createServer((_request, response) => response.writeHead(503).end("maintenance"));
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    smtp = await startTestSmtpServer({
      disabledCommands: ["STARTTLS", "AUTH"],
      onRcptTo: (_address, _session, callback) => callback(smtpRefusal(550, "Mailbox unavailable")),
    });
  });
  afterAll(async () => {
    await smtp?.close();
    await new Promise((resolve) => receiver?.close(resolve));
    await database?.close();
  });

  it("warns of a failed webhook attempt with its webhook, host, status and next attempt", async () => {
    const recorded = recordingLog();
    const { log, text } = recorded;
    const host = `127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    const owner = (await anOwner(database.db)).actor;
    const webhook = await createWebhook(
      {
        ...asUser(database.db, owner),
        services: { webhookPolicy: { allowHttp: true, allowPrivate: true }, vault },
      },
      {
        url: `http://${host}/hooks/allot?token=receiver-query-s3cret`,
        event_types: ["bank_account.created"],
      },
    );
    await anAccount(database.db, owner, { name: "Hooked" });
    const poster = httpWebhookPoster({ allowHttp: true, allowPrivate: true });
    const delivery = startWebhookDelivery(database, { poster, vault, log });
    try {
      await until(
        () => recorded.lines.some((line) => line.job === "deliver-webhooks"),
        "webhook warning",
        text,
      );
    } finally {
      await delivery.stop();
      await poster.close();
    }
    const warning = recorded.lines.find((line) => line.job === "deliver-webhooks");
    expect(warning).toMatchObject({
      level: "warn",
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      webhook_id: webhook.id,
      host,
      status: 503,
      reason: "HTTP 503: maintenance",
      attempt: 1,
      next_attempt_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      msg: expect.stringContaining(`webhook ${webhook.id} delivery to ${host} failed (attempt 1): HTTP 503`),
    });
    expect(text()).not.toContain(webhook.secret);
    expect(text()).not.toContain("receiver-query-s3cret");
    expect(text()).not.toContain("/hooks/allot");
  });

  it("warns of a failed email send with its outbox id, transport and reason", async () => {
    const recorded = recordingLog();
    const { log, text } = recorded;
    const link = "https://allot.example/links/password-reset/emailed-link-s3cret";
    await database.db.transaction((tx) =>
      enqueueEmail(
        tx,
        {
          kind: "password_reset",
          to: "sam@example.com",
          subject: "Reset your password",
          text: `Open ${link} to choose a new password.`,
          html: `<p><a href="${link}">Choose a new password</a></p>`,
        },
        { vault },
      ),
    );
    const transport = mailTransportFor({
      transport: "smtp",
      from: "Allot <noreply@allot.test>",
      url: `smtp://127.0.0.1:${smtp.port}`,
    });
    const delivery = startEmailDelivery(database.db, transport, {
      publicBaseUrl: "https://allot.example",
      vault,
      log,
      transportName: "smtp",
    });
    try {
      await until(() => recorded.lines.some((line) => line.kind === "password_reset"), "email warning", text);
    } finally {
      await delivery.stop();
      await transport.close?.();
    }
    const warning = recorded.lines.find((line) => line.kind === "password_reset");
    expect(warning).toMatchObject({
      level: "warn",
      transport: "smtp",
      outbox_id: expect.any(String),
      kind: "password_reset",
      attempt: 1,
      reason: expect.stringContaining("550 Mailbox unavailable"),
      next_attempt_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(String(warning?.msg)).toContain(`email ${String(warning?.outbox_id)} not sent (attempt 1)`);
    expect(text()).not.toContain("emailed-link-s3cret");
    expect(text()).not.toContain("choose a new password");
    expect(text()).not.toContain("sam@example.com");
  });
});
