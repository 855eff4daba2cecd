import { fundingRoutes } from "@allot/contract/funding/routes";
import { importRoutes } from "@allot/contract/import/routes";
import { internalTransactionRoutes } from "@allot/contract/internal-transactions/routes";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { fileWriteJournal } from "@allot/sdk/file-write-journal";
import type { JournaledWrite, WriteJournal } from "@allot/sdk/write-journal";
import dayjs from "dayjs";
import { shown } from "./format/terminal-text";

/*
 * Every write of the CLI goes through one write journal, a file beside the config file: a command
 * killed, or cut off for good, after the server committed its write and before the answer came
 * is run again with the same Idempotency-Key, and the server answers it instead of applying it twice.
 */

const routeOf = (route: { method: string; path: string }) => `${route.method} ${route.path}`;

/** What people call the writes a command may resume; any other is named by its method and path. */
const WRITE_NAMES = new Map(
  (
    [
      [internalTransactionRoutes.create, "transfer"],
      [transactionRoutes.split, "split"],
      [importRoutes.syncScrape, "import"],
      [importRoutes.transactionDetails, "import of details"],
      [fundingRoutes.run, "funding run"],
      [transactionRoutes.create, "transaction"],
    ] as const
  ).map(([route, name]) => [routeOf(route), name]),
);

/**
 * The CLI's journal: a resumed write says so in one line on stderr (not with --json, where stderr
 * holds only the JSON of an error), and a journal that cannot be read or written is a warning.
 */
export function cliWriteJournal(path: string, output: { json?: boolean }): WriteJournal {
  return fileWriteJournal(path, {
    onResume: (write, sentAt) => {
      if (!output.json) process.stderr.write(shown`${resumeNotice(write, sentAt)}\n`);
    },
    onWarning: (message) => process.stderr.write(shown`warning: ${message}\n`),
  });
}

/** `Resuming an unanswered transfer sent at 14:02 (same Idempotency-Key): the server applies it once.` */
export function resumeNotice(write: JournaledWrite, sentAt: Date, now = new Date()): string {
  const name = WRITE_NAMES.get(routeOf({ method: write.method, path: write.routePath })) ?? routeOf(write);
  const when = dayjs(sentAt).format(dayjs(sentAt).isSame(now, "day") ? "HH:mm" : "YYYY-MM-DD HH:mm");
  return `Resuming an unanswered ${name} sent at ${when} (same Idempotency-Key): the server applies it once.`;
}
