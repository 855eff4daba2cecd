import { credentialRoutes } from "@allot/contract/credentials/routes";
import { emailOutbox } from "@allot/db/schema/email-outbox";
import { testEngines } from "@allot/db/testing/test-databases";
import { issueQueuedPasswordResets } from "@allot/domain/credentials/issue-queued-password-resets";
import { deliverDueEmails } from "@allot/domain/email/deliver-emails";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { openedOutboxRow } from "@allot/domain/testing/opened-outbox-row";
import { logTransport } from "@allot/mail/log-transport";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { testConfig, useTestApp } from "../../test/testing/test-app";
import { useTestMailbox } from "../../test/testing/test-mailbox";

const FROM = "Allot <noreply@allot.test>";

/** The emailed reset links' tokens are credentials: not kept once sent, not printed by `log`. */
describe.each(testEngines())("tokens in emails (%s)", (engine) => {
  const t = useTestApp(engine);
  const mailbox = useTestMailbox(() => t.db);

  /** A reset requested over HTTP and issued from the queue; its outbox row, still unsent, and its link's token. */
  async function requestReset(email: string) {
    const response = await t.anonymous.call(credentialRoutes.requestPasswordReset, { email });
    expect(response.statusCode).toBe(204);
    await issueQueuedPasswordResets(internalContext(t.db, "scheduler"), {
      publicBaseUrl: testConfig().publicBaseUrl,
      vault: t.vault,
    });
    const [stored] = await t.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, email));
    const row = stored && openedOutboxRow(stored);
    const token = /\/links\/password-reset\/([^\s"<]+)/.exec(row?.textBody ?? "")?.[1];
    if (!row || !token) throw new Error(`no reset email queued for ${email}`);
    return { row, token };
  }

  it("drops a message's body from the outbox once it is delivered", async () => {
    const user = await t.user();
    const { row, token } = await requestReset(user.email);
    expect(row.htmlBody).toContain(token);

    const delivered = await mailbox.latestTo(user.email);
    expect(delivered.text).toContain(`/links/password-reset/${token}`);
    const [after] = await t.db.select().from(emailOutbox).where(eq(emailOutbox.id, row.id));
    expect(after).toMatchObject({ textBody: null, htmlBody: null, subject: row.subject });
    expect(after?.sentAt).not.toBeNull();
    expect(JSON.stringify(after)).not.toContain(token);
  });

  it("prints a message through the log transport without its links' tokens, unless told to", async () => {
    const printed = async (bodies: boolean) => {
      const user = await t.user();
      const { token } = await requestReset(user.email);
      const lines: string[] = [];
      await deliverDueEmails(internalContext(t.db, "scheduler"), {
        transport: logTransport(FROM, { bodies }, (line) => lines.push(line)),
        vault: t.vault,
      });
      const mine = lines.filter((line) => line.includes(user.email));
      expect(mine).toHaveLength(1);
      return { line: mine[0] as string, token };
    };

    const masked = await printed(false);
    expect(masked.line).not.toContain(masked.token);
    expect(masked.line).toContain("/links/password-reset/[masked]");
    expect(JSON.parse(masked.line).mail.subject).toEqual(expect.any(String));

    // MAIL_LOG_BODIES=true, for local development: the whole message, link working.
    const whole = await printed(true);
    expect(whole.line).toContain(`/links/password-reset/${whole.token}`);
  });
});
