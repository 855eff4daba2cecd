import { type Command, InvalidArgumentError } from "commander";
import { addExamples } from "../cli-conventions";
import type { CliEnv } from "../env";
import { shown } from "../format/terminal-text";
import { MAX_FILES_READ, type OutboxMessage, readOutbox } from "../mail/read-outbox";
import { printJson, reportError } from "../output";

interface MailOptions {
  to?: string;
  last?: number;
  json?: boolean;
}

function messageCount(value: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1 || Number(value) > MAX_FILES_READ)
    throw new InvalidArgumentError(`Give a whole number of messages from 1 to ${MAX_FILES_READ}.`);
  return Number(value);
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

/** One message for people: when, to whom, what, and the links to open. */
function printMessage(message: OutboxMessage): void {
  const date = message.created_at.replace("T", " ").replace(/\.\d+Z$|Z$/, " UTC");
  process.stdout.write(shown`date     ${date}\nto       ${message.to}\nsubject  ${message.subject}\n`);
  if (message.links.length === 0) process.stdout.write("link     -\n");
  for (const link of message.links) process.stdout.write(shown`link     ${link}\n`);
}

/**
 * `allot admin mail`: the emails the server wrote with the `file` transport (the default), read
 * from the folder itself: no database is opened, so it works while the server runs, on the
 * embedded database too. Newest last, like a log: the message just sent is nearest the prompt.
 */
export function registerAdminMailCommand(admin: Command, env: CliEnv): void {
  const mail = admin
    .command("mail")
    .description(
      "Show the emails the server wrote to its outbox folder (MAIL_TRANSPORT=file, the default), newest last, with their links; works while the server runs",
    )
    .option("--to <address>", "only the messages to this address (any case)")
    .option("--last <n>", `only the newest n messages (at most ${MAX_FILES_READ})`, messageCount)
    .option("--json", "print a JSON array for scripts")
    .action(async (options: MailOptions) => {
      try {
        const { directory, transport } = env.mail;
        if (transport !== undefined && transport !== "file")
          process.stderr.write(
            shown`note: MAIL_TRANSPORT=${transport}: the server does not write mail to files; showing what ${directory} holds from before.\n`,
          );
        const to = options.to?.trim().toLowerCase();
        const read = await readOutbox(directory, {
          wanted: (message) => to === undefined || message.to.trim().toLowerCase() === to,
          last: options.last,
        });
        for (const { file, reason } of read.skipped)
          process.stderr.write(shown`warning: skipped ${file}: ${reason}\n`);
        if (read.unread > 0)
          process.stderr.write(
            shown`warning: read the newest ${MAX_FILES_READ} files only; ${plural(read.unread, "older file")} not read (old messages may be deleted from ${directory}).\n`,
          );
        if (options.json) {
          printJson(read.messages);
          return;
        }
        if (read.messages.length === 0) {
          const whom = to === undefined ? "" : ` to ${options.to?.trim()}`;
          const why = read.exists ? "" : " (the folder does not exist yet: no email was written)";
          process.stdout.write(shown`No mail${whom} in ${directory}${why}.\n`);
          return;
        }
        for (const [index, message] of read.messages.entries()) {
          if (index > 0) process.stdout.write("\n");
          printMessage(message);
        }
      } catch (error) {
        reportError(error, Boolean(options.json));
      }
    });
  addExamples(mail, [
    "allot admin mail --to sam@example.com --last 1      # the link of the invitation just sent",
    "allot admin mail --last 20",
    "MAIL_DIR=/srv/allot/mail allot admin mail --json",
  ]);
}
