import type { ActivityEvent } from "@allot/contract/activity/activity-event";
import { ACTIVITY_EVENT_TYPES, type ActivityEventType } from "@allot/contract/activity/activity-event-types";
import { activityRoutes } from "@allot/contract/activity/routes";
import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "@allot/contract/http/fields";
import { localDate, localTime } from "@allot/domain/calendar/local-days";
import { type Command, Option } from "commander";
import { type ApiOptions, addApiOptions, openApiClient } from "../api-session";
import { addExamples } from "../cli-conventions";
import type { CliEnv } from "../env";
import type { Column } from "../format/columns";
import { addOutputOptions, emitList, type OutputOptions } from "../format/emit";
import { reportError } from "../output";
import { resolveAccountId } from "../resolve/account";
import { dateFlag } from "./transaction-flags";
import { positiveInteger } from "./transactions-list";

interface ActivityOptions extends ApiOptions, OutputOptions {
  account?: string;
  type?: ActivityEventType[];
  actor?: string;
  after?: string;
  before?: string;
  limit?: number;
}

/** A flag's value read when it was given. */
const given = <T>(value: string | undefined, read: (value: string) => T) =>
  value === undefined ? undefined : read(value);

/** When an event happened on the account's clock, to the minute: "2026-03-10 09:41". */
const when = (at: string, timeZone: string) => {
  const instant = new Date(at);
  return `${localDate(instant, timeZone)} ${localTime(instant, timeZone).slice(0, 5)}`;
};

/** Who: the username (an API key's owner), else the process that acted (scheduler, system). */
const who = (event: ActivityEvent) => event.actor.username ?? event.actor.kind;

const columns = (timeZone: string): Column<ActivityEvent>[] => [
  { header: "When", value: (event) => when(event.occurred_at, timeZone) },
  { header: "Who", value: who },
  { header: "Type", value: (event) => event.type },
  { header: "What", value: (event) => event.summary },
];

/** `allot activity`: who changed what in an account, newest first, with the API's filters. */
export function registerActivityCommand(command: Command, env: CliEnv): void {
  command
    .option("--account <name-or-id>", "the bank account (default: your default account, or your only one)")
    .addOption(
      new Option("--type <type...>", "only events of these types (repeat it, or give several)").choices(
        ACTIVITY_EVENT_TYPES,
      ),
    )
    .option("--actor <username>", "only the changes of this user (any case)")
    .option("--after <date-time>", "at or after this instant (a bare date: the start of that day)")
    .option("--before <date-time>", "at or before this instant (a bare date: the whole of that day)")
    .option(
      "--limit <n>",
      `at most this many events, following pages (default: one page of ${DEFAULT_PAGE_SIZE})`,
      positiveInteger,
    );
  addExamples(addApiOptions(addOutputOptions(command)), [
    "allot activity",
    "allot activity --account Checking --type budget.created --type budget.deleted",
    "allot activity --actor sam@example.com --after 2026-03-01 --before 2026-03-31",
    "allot activity --limit 500 --json > activity.json",
  ]).action((options: ActivityOptions) => listActivity(env, options));
}

async function listActivity(env: CliEnv, options: ActivityOptions): Promise<void> {
  try {
    // Every flag is read before the first request: a typo exits 2 having sent nothing.
    const dates = {
      occurred_after: given(options.after, (v) => dateFlag("--after", v)),
      occurred_before: given(options.before, (v) => dateFlag("--before", v)),
    };
    const client = await openApiClient(env, options);
    const account = await resolveAccountId(client, options.account);
    const limit = options.limit ?? DEFAULT_PAGE_SIZE;
    const query = {
      id: account,
      type: options.type,
      actor: options.actor,
      ...dates,
      page_size: Math.min(limit, MAX_PAGE_SIZE),
    };
    const rows: ActivityEvent[] = [];
    for await (const row of client.paginate(activityRoutes.list, query)) {
      rows.push(row);
      if (rows.length >= limit) break;
    }
    // --json prints the API's objects as they are; people read times on the account's clock.
    const timeZone = options.json
      ? "UTC"
      : (await client.call(bankAccountRoutes.get, { id: account })).timezone;
    emitList(
      rows,
      columns(timeZone),
      options,
      "No activity matches: loosen the filters or try another --account.",
    );
  } catch (error) {
    reportError(error, Boolean(options.json));
  }
}
