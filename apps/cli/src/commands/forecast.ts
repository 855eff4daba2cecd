import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import type { ForecastInterval } from "@allot/contract/forecasts/forecast";
import {
  FORECAST_DEFAULT_DAYS,
  FORECAST_INTERVALS,
  FORECAST_MAX_DAYS,
} from "@allot/contract/forecasts/forecast";
import { dateField } from "@allot/contract/http/fields";
import { type Command, Option } from "commander";
import { type ApiOptions, addApiOptions, openApiClient } from "../api-session";
import { addExamples } from "../cli-conventions";
import type { CliEnv } from "../env";
import { stdoutHasColour } from "../format/colour";
import { stdoutWidth } from "../format/output-width";
import { stdoutIsUtf8 } from "../format/text-charset";
import { printJson, reportError, UsageError } from "../output";
import { resolveAccountId } from "../resolve/account";
import { forecastItems, ITEM_SHAPE } from "./forecast-items";
import { renderForecastReport } from "./forecast-report";

interface ForecastOptions extends ApiOptions {
  account?: string;
  until?: string;
  interval?: ForecastInterval;
  item?: string[];
  json?: boolean;
}

function untilOf(text: string | undefined): string | undefined {
  if (text !== undefined && !dateField().safeParse(text).success)
    throw new UsageError(`--until must be a date, YYYY-MM-DD, not '${text}'.`, "invalid_date");
  return text;
}

/**
 * `allot forecast`: the funding engine run forward from the account's state now, nothing written
 * (docs/spec/extensions.md §8). With --item what-ifs it asks the POST form, else the GET.
 */
export function registerForecastCommand(command: Command, env: CliEnv): void {
  addApiOptions(command)
    .option("--account <name-or-id>", "the bank account (default: your default or only account)")
    .option(
      "--until <date>",
      `the last day forecast, YYYY-MM-DD: after the account's today, at most ${FORECAST_MAX_DAYS} days after it (default ${FORECAST_DEFAULT_DAYS} days after it)`,
    )
    .addOption(
      new Option(
        "--interval <interval>",
        "the spacing of the answer's series (day, week, month; default month): the chart is drawn day by day",
      ).choices(FORECAST_INTERVALS),
    )
    .option(
      "--item <item>",
      `money in or out on a day, never stored: ${ITEM_SHAPE}; repeat it for more`,
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option("--json", "print the API's answer as JSON for scripts");
  addExamples(command, [
    "allot forecast",
    "allot forecast --account Joint --until 2027-06-30",
    'allot forecast --item "2027-01-15 -1200.00 Car repair" --item "2027-02-01 +300 Refund"',
    "allot forecast --interval week --json",
  ]);
  command.action(async (options: ForecastOptions) => {
    try {
      // Usage mistakes are caught before anything is sent.
      const until = untilOf(options.until);
      const items = forecastItems(options.item ?? []);
      const client = await openApiClient(env, options);
      const id = await resolveAccountId(client, options.account);
      const query = { id, until, interval: options.interval };
      const forecast =
        items.length > 0
          ? await client.forecasts.whatIf({ ...query, items })
          : await client.forecasts.get(query);
      if (options.json) {
        printJson(forecast);
        return;
      }
      const account = await client.call(bankAccountRoutes.get, { id });
      process.stdout.write(
        renderForecastReport(forecast, {
          accountName: account.name,
          width: stdoutWidth(),
          unicode: stdoutIsUtf8(),
          colour: stdoutHasColour(),
        }),
      );
    } catch (error) {
      reportError(error, Boolean(options.json));
    }
  });
}
