import { resolve } from "node:path";
import type { Command } from "commander";
import { type ApiOptions, addApiOptions, openApiClient } from "../api-session";
import { addExamples } from "../cli-conventions";
import type { ImportProfile } from "../config-file";
import type { CliEnv } from "../env";
import { shown } from "../format/terminal-text";
import { readCsvStatement } from "../import/csv-statement";
import {
  type CsvFlags,
  checkProfileName,
  csvOptionsOf,
  resolveProfile,
  saveProfile,
} from "../import/mapping-profiles";
import { readOfxStatement } from "../import/ofx-statement";
import { startProgress } from "../import/progress-bar";
import { readTextFile } from "../import/read-text-file";
import { readScrapeFile } from "../import/scrape-file";
import { type DetailsOutcome, detailsToSend, sendDetails } from "../import/send-details";
import { type BalanceCheck, type SyncOutcome, sendSync } from "../import/send-sync";
import type { Statement } from "../import/statement";
import { printJson, printRecord, reportError } from "../output";
import { resolveAccountId } from "../resolve/account";

interface CommonOptions extends ApiOptions {
  account: string;
  dryRun?: boolean;
  json?: boolean;
  balanceCheck?: boolean;
}

type Format = "scrape" | "ofx" | "csv";

/** `allot import scrape|ofx|csv FILE --account NAME-OR-ID`: a bank file into an account, through sync-scrape. */
export function registerImportCommands(group: Command, env: CliEnv): void {
  const scrape = common(
    group
      .command("scrape")
      .argument("<file>", "a sync-scrape body as JSON (rows may carry details and category)"),
  )
    .description("Push a scraper's sync-scrape JSON, then send the details of the rows that need them")
    .action((file: string, options: CommonOptions) => run(env, "scrape", file, options, () => ({})));

  const ofx = common(group.command("ofx").argument("<file>", "an OFX 1.x (SGML) or 2.x (XML) or QFX file"))
    .description("Import the posted rows of an OFX/QFX statement; its ledger balance is checked")
    .option("--ofx-account <acctid>", "which statement, when the file holds several (its ACCTID)")
    .action((file: string, options: CommonOptions & { ofxAccount?: string }) =>
      run(env, "ofx", file, options, () => ({ ofxAccount: options.ofxAccount })),
    );

  const csv = common(group.command("csv").argument("<file>", "a bank's CSV export"))
    .description("Import a CSV export through a column map (saved and reused as a profile)")
    .option(
      "--map <columns>",
      "which column holds what: date=…,amount=…,description=…[+…][,balance=…] or debit=…,credit=… instead of amount",
    )
    .option(
      "--date-format <format>",
      "how dates are written, e.g. MM/DD/YYYY, DD.MM.YYYY, D MMM YYYY (default YYYY-MM-DD)",
    )
    .option("--decimal <char>", "the decimal separator of amounts: '.' (default) or ','")
    .option(
      "--delimiter <char>",
      "the field delimiter (default: guessed from the header line; 'tab' for a tab)",
    )
    .option("--skip-lines <n>", "lines before the header line")
    // --profile is the config profile (server and key) here as everywhere, hence --mapping.
    .option("--mapping <name>", "use a saved mapping (options given here take its place)")
    .option("--save-mapping <name>", "save this mapping under a name, once the file has been read")
    .action((file: string, options: CommonOptions & CsvFlags & { saveMapping?: string }) =>
      run(env, "csv", file, options, async () => {
        const saveAs = options.saveMapping === undefined ? undefined : checkProfileName(options.saveMapping);
        const profile = await resolveProfile(env.configPath, options);
        return { profile, saveAs };
      }),
    );

  addExamples(group, [
    "allot import ofx statement.ofx --account Checking --dry-run",
    "allot import csv export.csv --account Checking --mapping mybank",
    "allot import scrape rows.json --account Checking --json",
  ]);
  addExamples(scrape, [
    "allot import scrape rows.json --account Checking",
    "allot import scrape rows.json --account Checking --dry-run --json",
  ]);
  addExamples(ofx, [
    "allot import ofx statement.qfx --account Checking",
    "allot import ofx all-accounts.ofx --account Checking --ofx-account 000123456 --dry-run",
  ]);
  addExamples(csv, [
    "allot import csv export.csv --account Checking --map date=Date,amount=Amount,description=Description \\\n      --date-format MM/DD/YYYY --save-mapping mybank",
    "allot import csv next-month.csv --account Checking --mapping mybank",
    "allot import csv giro.csv --account Checking --mapping giro --decimal , --skip-lines 2 --dry-run",
  ]);
}

function common(command: Command): Command {
  return addApiOptions(
    command
      .requiredOption("--account <name-or-id>", "the bank account to import into (its name or id)")
      .option("--dry-run", "show what would be inserted and skipped; change nothing")
      .option("--no-balance-check", "do not compare the file's balance with the account's")
      .option("--json", "print JSON for scripts"),
  );
}

interface Prepared {
  ofxAccount?: string;
  profile?: ImportProfile;
  saveAs?: string;
}

async function run(
  env: CliEnv,
  format: Format,
  file: string,
  options: CommonOptions,
  prepare: () => Prepared | Promise<Prepared>,
): Promise<void> {
  const json = Boolean(options.json);
  try {
    const prepared = await prepare();
    // The whole file is read and checked before the first request: a bad line sends nothing.
    const text = await readTextFile(resolve(env.workingDirectory, file));
    const statement = readStatement(format, text, file, prepared);
    if (prepared.saveAs && prepared.profile)
      await saveProfile(env.configPath, prepared.saveAs, prepared.profile);

    const client = await openApiClient(env, options);
    const account = await resolveAccountId(client, options.account);
    const balanceCheck: BalanceCheck =
      options.balanceCheck === false ? "never" : format === "scrape" ? "always" : "if-current";
    const progress = startProgress(statement.rows.length);
    let outcome: SyncOutcome;
    try {
      outcome = await sendSync(client.imports, account, statement, {
        dryRun: Boolean(options.dryRun),
        balanceCheck,
        onProgress: (rows) => progress.update(rows),
      });
    } finally {
      progress.stop();
    }
    const details =
      format !== "scrape"
        ? null
        : options.dryRun
          ? { to_send: detailsToSend(outcome.rows).length }
          : await sendDetails(client.imports, account, outcome.rows);
    report({
      file,
      format,
      account,
      dryRun: Boolean(options.dryRun),
      json,
      outcome,
      details,
      saved: prepared.saveAs,
    });
  } catch (error) {
    reportError(error, json);
  }
}

function readStatement(format: Format, text: string, file: string, prepared: Prepared): Statement {
  if (format === "scrape") return readScrapeFile(text, file);
  if (format === "ofx")
    return readOfxStatement(text, file, prepared.ofxAccount ? { account: prepared.ofxAccount } : {});
  return readCsvStatement(text, file, csvOptionsOf(prepared.profile as ImportProfile));
}

interface Report {
  file: string;
  format: Format;
  account: string;
  dryRun: boolean;
  json: boolean;
  outcome: SyncOutcome;
  details: DetailsOutcome | { to_send: number } | null;
  saved: string | undefined;
}

const ACTION_WORDS = { insert: "insert ", skip: "skip   ", insert_pending: "pending" } as const;

function report({ file, format, account, dryRun, json, outcome, details, saved }: Report): void {
  const { rows, ...totals } = outcome;
  if (json) {
    printJson({
      file,
      format,
      account,
      dry_run: dryRun,
      rows: rows.length,
      ...totals,
      details,
      ...(saved ? { saved_profile: saved } : {}),
      ...(dryRun
        ? {
            transactions: rows.map(({ row, action }) => ({
              line: row.line,
              action,
              posted_date: row.posted_date,
              amount: row.amount,
              raw_description: row.raw_description,
            })),
          }
        : {}),
    });
    return;
  }
  if (dryRun) {
    process.stdout.write("Dry run: nothing was changed. Would:\n");
    for (const { row, action } of rows)
      process.stdout.write(
        shown`  ${ACTION_WORDS[action]}  line ${String(row.line).padEnd(6)} ${row.posted_date.slice(0, 10)}  ${row.amount.padStart(12)}  ${row.raw_description}\n`,
      );
  }
  const would = dryRun ? "would be " : "";
  printRecord({
    file,
    account,
    "rows read": rows.length,
    [`${would}inserted`]: `${totals.inserted_posted} posted, ${totals.inserted_pending} pending`,
    [`${would}skipped`]: `${totals.skipped_posted} already imported`,
    [`pending ${would}deleted`]: totals.deleted_pending,
    balance: !totals.balance_checked
      ? totals.balance_note
      : totals.balance_mismatch === null
        ? "matches the file's"
        : `${dryRun ? "would differ" : "differs"}: the account's minus the file's is ${totals.balance_mismatch}`,
    "posted through": totals.last_posted_through,
    ...(details && "to_send" in details ? { "details to send": details.to_send } : {}),
    ...(details && "applied" in details
      ? { "details applied": `${details.applied} of ${details.sent}` }
      : {}),
    ...(saved ? { "saved profile": saved } : {}),
    ...(totals.syncs > 1 ? { syncs: totals.syncs } : {}),
  });
  for (const message of totals.posting_order_mismatches) process.stderr.write(shown`warning: ${message}\n`);
  if (details && "warnings" in details)
    for (const { line, warnings } of details.warnings)
      for (const warning of warnings) process.stderr.write(shown`warning: line ${line}: ${warning}\n`);
  if (format !== "scrape" && totals.balance_checked && totals.balance_mismatch !== null && !dryRun)
    process.stderr.write(
      "warning: the account's balance differs from the file's (an opening balance missing?)\n",
    );
}
