import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { fundingRoutes } from "@allot/contract/funding/routes";
import { localDate } from "@allot/domain/calendar/local-days";
import type { Client } from "@allot/sdk/client";
import type { Command } from "commander";
import dayjs from "dayjs";
import { type ApiOptions, addApiOptions, openApiClient } from "../api-session";
import { confirmOrRefuse } from "../confirm";
import type { CliEnv } from "../env";
import { addOutputOptions, emitList, emitRecord, type OutputOptions } from "../format/emit";
import { shown } from "../format/terminal-text";
import { printJson, reportError, UsageError } from "../output";
import { resolveAccountId } from "../resolve/account";

interface FundOptions extends ApiOptions, OutputOptions {
  account?: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DEFAULT_DAYS = 30;

function dateOf(flag: string, text: string): string {
  if (!DATE.test(text) || !dayjs(text).isValid())
    throw new UsageError(`${flag} must be a date, YYYY-MM-DD, not '${text}'.`, "invalid_date");
  return text;
}

const examples = (command: Command, lines: string[]) =>
  command.addHelpText("after", `\nExamples:\n${lines.map((line) => `  $ ${line}`).join("\n")}\n`);

function common(command: Command): Command {
  return addOutputOptions(
    addApiOptions(
      command.option("--account <name-or-id>", "the bank account (default: your default or only account)"),
    ),
  );
}

/** The subcommand's work with a client and the chosen account; failures reported (exit 1 or 2). */
function action<O extends FundOptions>(
  env: CliEnv,
  work: (client: Client, accountId: string, options: O) => Promise<void>,
  check: (options: O) => void = () => {},
) {
  return async (options: O) => {
    try {
      // Usage mistakes are caught before anything is sent.
      if (options.json && options.csv) throw new UsageError("Choose one of --json and --csv.");
      check(options);
      const client = await openApiClient(env, options);
      await work(client, await resolveAccountId(client, options.account), options);
    } catch (error) {
      reportError(error, Boolean(options.json));
    }
  };
}

/**
 * An --as-of after the account's today funds every schedule up to that day now, ahead of time:
 * said on stderr first (not with --json, where stderr holds errors only), then asked at a terminal;
 * a script must pass --yes, or is refused, since money would move (decision 0055).
 */
async function confirmFundingAhead(
  client: Client,
  accountId: string,
  asOf: string,
  options: { json?: boolean; yes?: boolean },
): Promise<void> {
  const account = await client.call(bankAccountRoutes.get, { id: accountId });
  const today = localDate(new Date(), account.timezone);
  const ahead = dayjs(asOf).diff(dayjs(today), "day");
  if (ahead <= 0) return;
  const days = ahead === 1 ? "1 day" : `${ahead} days`;
  if (!options.json)
    process.stderr.write(
      shown`warning: --as-of ${asOf} is ${days} after today (${today}) for '${account.name}': this funds every schedule of the account up to ${asOf} now, as if those days had come.\n`,
    );
  await confirmOrRefuse(
    `Fund '${account.name}' ${days} ahead, through ${asOf}?`,
    options.yes,
    "money moves ahead of time",
  );
}

/** `allot fund run|summary|dates`: run an account's funding now, and see what its schedules will fund and when. */
export function registerFundCommands(group: Command, env: CliEnv): void {
  examples(group, ["allot fund run", "allot fund summary", "allot fund dates --days 14"]);

  const run = common(group.command("run"))
    .description("Process every funding and recurrence event due through a day (default: today)")
    .option(
      "--as-of <date>",
      "process events due through this day, YYYY-MM-DD (default: the account's today)",
    )
    .option("--yes", "do not ask before funding ahead (an --as-of after today)")
    .action(
      action(
        env,
        async (client, accountId, options: FundOptions & { asOf?: string; yes?: boolean }) => {
          if (options.asOf !== undefined) await confirmFundingAhead(client, accountId, options.asOf, options);
          const result = await client.call(fundingRoutes.run, { id: accountId, as_of: options.asOf });
          emitRecord(
            result,
            [
              { header: "Transfers", value: (r) => r.transfers },
              { header: "Occurrences completed", value: (r) => r.occurrences_completed },
              { header: "Occurrences partial", value: (r) => r.occurrences_partial },
              { header: "Skipped (paused)", value: (r) => r.skipped_budgets.join(", ") },
              { header: "Warnings", value: (r) => r.warnings.join("; ") },
            ],
            options,
          );
          if (!options.json && !options.csv) {
            for (const warning of result.warnings) process.stderr.write(shown`warning: ${warning}\n`);
            if (result.transfers === 0)
              process.stderr.write(
                "Nothing was due: see what is coming with `allot fund dates` and `allot fund summary`.\n",
              );
          }
        },
        (options) => {
          if (options.asOf !== undefined) dateOf("--as-of", options.asOf);
        },
      ),
    );
  examples(run, [
    "allot fund run",
    "allot fund run --account Joint --as-of 2026-06-30 --json   # a missed day: today or before",
    "allot fund run --as-of 2026-07-03 --yes                    # ahead of time, say so with --yes",
  ]);

  const summary = common(group.command("summary"))
    .description("What the next funding of each schedule moves, grouped by schedule, soonest first")
    .action(
      action(env, async (client, accountId, options) => {
        const result = await client.call(fundingRoutes.summary, { id: accountId });
        // JSON keeps the API's whole answer (the total too); CSV and the table list the schedules.
        if (options.json) {
          printJson(result);
          return;
        }
        emitList(
          result.schedules,
          [
            // A DTSTART line and the RRULE, on one line so the table stays aligned.
            { header: "Schedule", value: (s) => s.schedule.replace(/\s*\n\s*/g, " ") },
            { header: "Next date", value: (s) => s.next_date },
            { header: "Budgets", value: (s) => s.budget_count },
            { header: "Amount", value: (s) => s.total_amount, money: true },
            { header: "Currency", value: (s) => s.currency },
          ],
          options,
          "No budget is funded on a schedule: give one with `allot budgets update NAME --schedule RRULE`.",
        );
        if (!options.csv && result.schedules.length > 0)
          process.stdout.write(
            shown`\nTotal of the next fundings: ${result.total_amount} ${result.currency}\n`,
          );
      }),
    );
  examples(summary, ["allot fund summary", "allot fund summary --account Joint --csv"]);

  const dates = common(group.command("dates"))
    .description(
      "The days on which a funding or recurrence event falls (default: today and the next 30 days)",
    )
    .option("--days <n>", `today and this many days after it (default ${DEFAULT_DAYS})`)
    .option("--after <date>", "from the day after this one, YYYY-MM-DD (with --before)")
    .option("--before <date>", "through this day, YYYY-MM-DD (with --after)")
    .action(
      action(
        env,
        async (
          client,
          accountId,
          options: FundOptions & { days?: string; after?: string; before?: string },
        ) => {
          const range = rangeOf(options);
          const result = await client.call(fundingRoutes.eventDates, { id: accountId, ...range });
          if (options.json) {
            printJson(result);
            return;
          }
          emitList(
            result.dates,
            [
              { header: "Date", value: (date) => date },
              { header: "Day", value: (date) => dayjs(date).format("ddd") },
            ],
            options,
            `No funding or recurrence event falls after ${range.after} through ${range.before}.`,
          );
        },
        (options) => {
          rangeOf(options);
        },
      ),
    );
  examples(dates, [
    "allot fund dates",
    "allot fund dates --days 90 --json",
    "allot fund dates --after 2025-06-30 --before 2025-12-31",
  ]);
}

/** The API's (after, before] window: --after and --before as given, or today and the next --days days. */
function rangeOf(options: { days?: string; after?: string; before?: string }): {
  after: string;
  before: string;
} {
  if (options.after !== undefined || options.before !== undefined) {
    if (options.days !== undefined) throw new UsageError("Choose --days or --after with --before, not both.");
    if (options.after === undefined || options.before === undefined)
      throw new UsageError("--after and --before go together: give both, or --days N instead.");
    return { after: dateOf("--after", options.after), before: dateOf("--before", options.before) };
  }
  const days = options.days === undefined ? DEFAULT_DAYS : Number(options.days);
  if (!Number.isInteger(days) || days < 0 || days > 3_650)
    throw new UsageError(
      `--days must be a whole number from 0 to 3650, not '${options.days}'.`,
      "invalid_days",
    );
  // After is exclusive: starting the day before today keeps today's events in.
  const today = dayjs();
  return {
    after: today.subtract(1, "day").format("YYYY-MM-DD"),
    before: today.add(days, "day").format("YYYY-MM-DD"),
  };
}
