import { budgetRoutes } from "@allot/contract/budgets/routes";
import {
  FUNDING_OCCURRENCE_KINDS,
  FUNDING_OCCURRENCE_ORDERING,
  FUNDING_OCCURRENCE_STATUSES,
  type FundingEventOccurrenceSchema,
} from "@allot/contract/funding-occurrences/funding-occurrence";
import { fundingOccurrenceRoutes } from "@allot/contract/funding-occurrences/routes";
import type { RouteInput } from "@allot/sdk/route-types";
import { type Command, Option } from "commander";
import type { z } from "zod";
import { type ApiOptions, addApiOptions, openApiClient } from "../api-session";
import type { CliEnv } from "../env";
import type { Column } from "../format/columns";
import { addOutputOptions, emitList, type OutputOptions } from "../format/emit";
import { reportError, UsageError } from "../output";
import { resolveAccountId } from "../resolve/account";
import { resolveBudgetId } from "../resolve/budget-names";

type Occurrence = z.infer<typeof FundingEventOccurrenceSchema>;
type Status = (typeof FUNDING_OCCURRENCE_STATUSES)[number];

interface Flags extends ApiOptions, OutputOptions {
  account?: string;
  budget?: string;
  kind?: (typeof FUNDING_OCCURRENCE_KINDS)[number];
  status?: string[];
  from?: string;
  to?: string;
  /** One of the --ordering choices commander checked. */
  ordering?: RouteInput<typeof fundingOccurrenceRoutes.list>["ordering"];
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** `allot occurrences`: the funding and recurrence events the engine reached in one account. */
export function registerOccurrencesCommand(command: Command, env: CliEnv): void {
  addApiOptions(addOutputOptions(command))
    .option("--account <name-or-id>", "the account, by name or id (default: your default or only account)")
    .option("--budget <name-or-id>", "only this budget's events")
    .addOption(
      new Option("--kind <kind>", "fund: funding; recur: a recurring budget's spend").choices(
        FUNDING_OCCURRENCE_KINDS,
      ),
    )
    .option(
      "--status <status>",
      `only these states (repeat it, or separate with commas): ${FUNDING_OCCURRENCE_STATUSES.join(", ")}`,
      (value: string, previous: string[] = []) => [...previous, ...value.split(",")],
    )
    .option("--from <date>", "scheduled on or after this day (YYYY-MM-DD)")
    .option("--to <date>", "scheduled on or before this day (YYYY-MM-DD)")
    .addOption(
      new Option(
        "--ordering <field>",
        "sort by a field (default scheduled_date); a leading - reverses",
      ).choices(FUNDING_OCCURRENCE_ORDERING.flatMap((field) => [field, `-${field}`])),
    )
    .addHelpText(
      "after",
      "\nExamples:\n  $ allot occurrences --account Checking --status PENDING --status PARTIAL\n  $ allot occurrences --budget Rent --kind recur --from 2026-01-01 --to 2026-03-31 --json\n",
    )
    .action(async (options: Flags) => {
      try {
        const statuses = options.status?.map(statusOf);
        const from = date("--from", options.from);
        const to = date("--to", options.to);
        if (from && to && from > to)
          throw new UsageError(`--from (${from}) is after --to (${to}): swap them.`, "invalid_date_range");
        const client = await openApiClient(env, options);
        const accountId = await resolveAccountId(client, options.account);
        const budget = options.budget ? await resolveBudgetId(client, accountId, options.budget) : undefined;
        const query = {
          bank_account: accountId,
          budget,
          kind: options.kind,
          status: statuses,
          date_from: from,
          date_to: to,
          ordering: options.ordering ?? "scheduled_date",
          page_size: 500,
        };
        const rows: Occurrence[] = [];
        // Page numbers rather than `next` links: a link's repeated ?status= would come back as one.
        for (let page = 1; ; page += 1) {
          const answer = await client.call(fundingOccurrenceRoutes.list, { ...query, page });
          rows.push(...answer.results);
          if (!answer.next) break;
        }
        const names = new Map<string, string>();
        if (!options.json && rows.length > 0) {
          for await (const b of client.paginate(budgetRoutes.list, {
            bank_account: accountId,
            page_size: 500,
          }))
            names.set(b.id, b.name);
        }
        const columns: Column<Occurrence>[] = [
          { header: "Date", value: (o) => o.scheduled_date },
          { header: "Budget", value: (o) => names.get(o.budget) ?? o.budget },
          { header: "Kind", value: (o) => o.kind },
          { header: "Status", value: (o) => o.status },
          { header: "Completed at", value: (o) => o.completed_at },
          { header: "Id", value: (o) => o.id },
        ];
        emitList(
          rows,
          columns,
          options,
          "No funding events match: run funding with `allot fund`, or widen the filters.",
        );
      } catch (error) {
        reportError(error, Boolean(options.json));
      }
    });
}

function statusOf(value: string): Status {
  const status = value.trim().toUpperCase();
  if ((FUNDING_OCCURRENCE_STATUSES as readonly string[]).includes(status)) return status as Status;
  throw new UsageError(
    `--status must be one of ${FUNDING_OCCURRENCE_STATUSES.join(", ")}, not '${value}'.`,
    "invalid_status",
  );
}

/** A YYYY-MM-DD day that exists, or a usage error. */
function date(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const day = value.trim();
  const parsed = new Date(`${day}T00:00:00Z`);
  if (!DATE.test(day) || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== day)
    throw new UsageError(
      `${flag} must be a day as YYYY-MM-DD (e.g. 2026-01-31), not '${value}'.`,
      "invalid_date",
    );
  return day;
}
