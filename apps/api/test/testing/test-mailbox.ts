import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "@allot/db/create-database";
import { issueQueuedPasswordResets } from "@allot/domain/credentials/issue-queued-password-resets";
import { deliverDueEmails } from "@allot/domain/email/deliver-emails";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { testVault } from "@allot/domain/testing/test-vault";
import { fileTransport } from "@allot/mail/file-transport";
import { afterAll, beforeAll } from "vitest";
import { testConfig } from "./test-app";

/** One delivered message, as the `file` transport writes it (docs/spec/operations.md, MAIL_DIR). */
export interface DeliveredEmail {
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  kind: string;
  created_at: string;
}

const FROM = "Allot <noreply@allot.test>";

/**
 * The outbox delivered through the real `file` transport into a folder of the test file's own, and
 * read back: tests follow links from the emails a user would receive. Each read first runs what the
 * email-delivery loop runs before sending (queued reset requests become emails).
 */
export function useTestMailbox(
  db: () => Database,
  options = { publicBaseUrl: testConfig().publicBaseUrl, vault: testVault },
) {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), "allot-mailbox-"));
  });
  afterAll(async () => {
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  const mailbox = {
    /** Delivers what is due, then every message ever delivered to the address, oldest first. */
    async messagesTo(address: string): Promise<DeliveredEmail[]> {
      await issueQueuedPasswordResets(internalContext(db(), "scheduler"), options);
      await deliverDueEmails(internalContext(db(), "scheduler"), {
        transport: fileTransport(directory, FROM),
        vault: options.vault,
      });
      const names = (await readdir(directory)).filter((name) => name.endsWith(".json")).sort();
      const messages = await Promise.all(
        names.map(
          async (name) => JSON.parse(await readFile(join(directory, name), "utf8")) as DeliveredEmail,
        ),
      );
      return messages.filter((message) => message.to.toLowerCase() === address.toLowerCase());
    },
    /** The newest message to the address (failing the test when there is none). */
    async latestTo(address: string): Promise<DeliveredEmail> {
      const messages = await mailbox.messagesTo(address);
      const latest = messages[messages.length - 1];
      if (!latest) throw new Error(`no email to ${address}`);
      return latest;
    },
    /** The first link in a message's text rooted at the given path, e.g. `/links/password-reset/`. */
    linkIn(message: DeliveredEmail, path: string): string {
      const match = new RegExp(`https?://\\S*${path.replace(/[/.]/g, "\\$&")}\\S*`).exec(message.text);
      if (!match) throw new Error(`no ${path} link in: ${message.text}`);
      return match[0];
    },
  };
  return mailbox;
}
