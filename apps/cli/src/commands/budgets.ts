import { createInterface } from "node:readline/promises";
import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import type { BudgetSchema } from "@allot/contract/budgets/budget";
import { BUDGET_TYPE, FUNDING_TYPE, type FundingType } from "@allot/contract/budgets/budget-kinds";
import { budgetRoutes } from "@allot/contract/budgets/routes";
import { DECIMAL_PATTERN, isUuid } from "@allot/contract/http/fields";
import type { Client } from "@allot/sdk/client";
import { type Command, Option } from "commander";
import type { z } from "zod";
import { type ApiOptions, addApiOptions, openApiClient } from "../api-session";
import { printJsonWithWarnings, printWarnings } from "../cli-warnings";
import type { CliEnv } from "../env";
import type { Column } from "../format/columns";
import { addOutputOptions, emitList, emitRecord, type OutputOptions } from "../format/emit";
import { shown } from "../format/terminal-text";
import { reportError, UsageError } from "../output";
import { resolveAccountId } from "../resolve/account";
import { resolveBudgetId } from "../resolve/budget-names";
import { autoFundingOffWarning } from "./accounts";

type Budget = z.output<typeof BudgetSchema>;

interface Options extends ApiOptions, OutputOptions {
  account?: string;
}

// People say "goal", the API says "G": the words the CLI accepts and shows, both ways.
const TYPE_CODES = {
  goal: BUDGET_TYPE.goal,
  recurring: BUDGET_TYPE.recurring,
  capped: BUDGET_TYPE.capped,
  fillup: BUDGET_TYPE.fillup,
} as const;
const FUNDING_CODES = { fixed: FUNDING_TYPE.fixedAmount, date: FUNDING_TYPE.targetDate } as const;
const FUNDING_SHOWN: Record<FundingType, string> = {
  [FUNDING_TYPE.fixedAmount]: "fixed amount",
  [FUNDING_TYPE.targetDate]: "toward a date",
};
type TypeWord = keyof typeof TYPE_CODES;
type FundingWord = keyof typeof FUNDING_CODES;
const wordOf = <W extends string>(codes: Record<W, string>, code: string): string =>
  (Object.keys(codes) as W[]).find((word) => codes[word] === code) ?? code;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const ORDERINGS = ["name", "-name", "created_at", "-created_at", "balance", "-balance"] as const;

// A schedule may carry a DTSTART line: shown on one line, so the record stays aligned.
const oneLine = (schedule: string) => schedule.replace(/\s*\n\s*/g, " ");

/** What a budget is doing, in a word or two: archived, complete, paused, or active. */
function stateOf(budget: Budget): string {
  const states = [
    budget.archived && "archived",
    budget.complete && "complete",
    budget.paused && "paused",
  ].filter(Boolean);
  return states.length > 0 ? states.join(", ") : "active";
}

const LIST_COLUMNS: Column<Budget>[] = [
  { header: "Name", value: (b) => b.name },
  { header: "Type", value: (b) => wordOf(TYPE_CODES, b.budget_type) },
  { header: "Balance", value: (b) => b.balance, money: true },
  { header: "Target", value: (b) => b.target_balance, money: true },
  { header: "Next funding", value: (b) => b.next_funding?.date },
  { header: "Next amount", value: (b) => b.next_funding?.amount, money: true },
  { header: "State", value: stateOf },
];

const RECORD_FIELDS: Column<Budget>[] = [
  { header: "Name", value: (b) => b.name },
  { header: "Id", value: (b) => b.id },
  { header: "Type", value: (b) => wordOf(TYPE_CODES, b.budget_type) },
  { header: "Balance", value: (b) => `${b.balance} ${b.balance_currency}`, money: true },
  { header: "Target", value: (b) => b.target_balance, money: true },
  {
    header: "Funded",
    value: (b) => (b.budget_type === BUDGET_TYPE.goal ? b.funded_amount : null),
    money: true,
  },
  { header: "Funding", value: (b) => FUNDING_SHOWN[b.funding_type] },
  { header: "Funding amount", value: (b) => b.funding_amount, money: true },
  { header: "Target date", value: (b) => b.target_date },
  { header: "Schedule", value: (b) => oneLine(b.funding_schedule) },
  { header: "Recurrence", value: (b) => b.recurrence_schedule && oneLine(b.recurrence_schedule) },
  {
    header: "Next funding",
    value: (b) => b.next_funding && `${b.next_funding.date}  ${b.next_funding.amount}`,
  },
  { header: "Next recurrence", value: (b) => b.next_recurrence },
  { header: "Pace", value: (b) => b.funding_pace?.replace("_", " ") },
  { header: "State", value: stateOf },
  { header: "Memo", value: (b) => b.memo },
  { header: "Auto spend", value: (b) => b.auto_spend.join(", ") },
];

/** An amount flag as the API's decimal string, or exit 2 naming the flag. */
function amountOf(flag: string, text: string): string {
  const amount = text.trim();
  if (!DECIMAL_PATTERN.test(amount))
    throw new UsageError(`${flag} must be an amount such as 250 or 250.00, not '${text}'.`, "invalid_amount");
  return amount;
}

/** A date flag as YYYY-MM-DD ("none" clears it), or exit 2 naming the flag. */
function dateOf(flag: string, text: string): string | null {
  if (text === "none") return null;
  if (!DATE.test(text))
    throw new UsageError(`${flag} must be a date, YYYY-MM-DD, not '${text}'.`, "invalid_date");
  return text;
}

/** --account and the API and output options every `budgets` subcommand takes. */
function common(command: Command): Command {
  return addOutputOptions(
    addApiOptions(
      command.option("--account <name-or-id>", "the bank account (default: your default or only account)"),
    ),
  );
}

const examples = (command: Command, lines: string[]) =>
  command.addHelpText("after", `\nExamples:\n${lines.map((line) => `  $ ${line}`).join("\n")}\n`);

/** The budget a NAME argument means: an id as it is, else a name in the chosen account. */
async function budgetIdOf(client: Client, options: Options, nameOrId: string): Promise<string> {
  if (isUuid(nameOrId.trim())) return nameOrId.trim().toLowerCase();
  return resolveBudgetId(client, await resolveAccountId(client, options.account), nameOrId);
}

/** Runs a subcommand's work with a client, reporting any failure (exit 1 from the API, 2 for usage). */
function action<O extends Options, A extends unknown[]>(
  env: CliEnv,
  work: (client: Client, options: O, ...args: A) => Promise<void>,
  before?: (options: O, ...args: A) => void,
) {
  return async (...received: unknown[]) => {
    // Commander passes the arguments, then the options, then the command.
    const options = received[received.length - 2] as O;
    const args = received.slice(0, -2) as A;
    try {
      before?.(options, ...args);
      await work(await openApiClient(env, options), options, ...args);
    } catch (error) {
      reportError(error, Boolean(options.json));
    }
  };
}

/**
 * The account's Unallocated budget (its bank account names it) is never archived or deleted: said
 * before any question, rather than asked and then refused by the API.
 */
async function refuseUnallocated(
  client: Client,
  budget: Budget,
  verb: "archived" | "deleted",
): Promise<void> {
  const account = await client.call(bankAccountRoutes.get, { id: budget.bank_account });
  if (account.unallocated_budget === budget.id)
    throw new UsageError(
      `'${budget.name}' is the account's Unallocated budget, which holds the money no other budget does: it cannot be ${verb}.`,
      "unallocated_budget",
    );
}

/**
 * Destructive commands go ahead with --yes, or after a "y" typed at a terminal. With neither, they
 * refuse (exit 2) before changing anything, so a script cannot delete by accident.
 */
function requireConsentUpFront(verb: string, options: { yes?: boolean }, name: string): void {
  if (options.yes || (process.stdin.isTTY && process.stderr.isTTY)) return;
  throw new UsageError(
    `No terminal to confirm at: pass --yes to ${verb} '${name}'.`,
    "confirmation_required",
  );
}

async function confirmAtTerminal(options: { yes?: boolean }, question: string): Promise<boolean> {
  if (options.yes) return true;
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await prompt.question(shown`${question} [y/N] `)).trim());
  } finally {
    prompt.close();
  }
}

/** `allot budgets …`: list, show, create, update, pause, resume, archive and delete budgets. */
export function registerBudgetsCommands(group: Command, env: CliEnv): void {
  examples(group, [
    "allot budgets list",
    "allot budgets create Groceries --type capped --target 600 --amount 150 --schedule 'FREQ=WEEKLY;BYDAY=FR'",
    "allot budgets show Groceries --json",
  ]);

  const list = common(group.command("list").alias("ls"))
    .description("List the account's budgets (active ones unless --archived or --all)")
    .addOption(new Option("--type <type>", "only budgets of this type").choices(Object.keys(TYPE_CODES)))
    .option("--paused", "only paused budgets")
    .option("--no-paused", "only budgets that are not paused")
    .option("--archived", "only archived budgets")
    .option("--all", "archived budgets as well as active ones")
    .option("--search <text>", "only budgets whose name contains this text (any case)")
    .addOption(new Option("--sort <field>", "order by this field (- for descending)").choices(ORDERINGS))
    .action(
      action(
        env,
        async (
          client,
          options: Options & {
            type?: TypeWord;
            paused?: boolean;
            archived?: boolean;
            all?: boolean;
            search?: string;
            sort?: (typeof ORDERINGS)[number];
          },
        ) => {
          const accountId = await resolveAccountId(client, options.account);
          const rows: Budget[] = [];
          for await (const budget of client.paginate(budgetRoutes.list, {
            bank_account: accountId,
            archived: options.all ? undefined : Boolean(options.archived),
            budget_type: options.type && TYPE_CODES[options.type],
            paused: options.paused,
            search: options.search,
            ordering: options.sort,
            page_size: 500,
          }))
            rows.push(budget);
          emitList(
            rows,
            LIST_COLUMNS,
            options,
            "No budget matches: create one with `allot budgets create NAME --type goal --target AMOUNT …`.",
          );
        },
        (options: Options & { archived?: boolean; all?: boolean }) => {
          if (options.archived && options.all) throw new UsageError("Choose one of --archived and --all.");
        },
      ),
    );
  examples(list, [
    "allot budgets list",
    "allot budgets list --account Checking --type goal --sort -balance",
    "allot budgets list --paused --csv > paused.csv",
  ]);

  const show = common(group.command("show").argument("<budget>", "the budget's name or id"))
    .description("Show one budget: balance, target, funding, schedules and state")
    .action(
      action(env, async (client, options, budget: string) => {
        const id = await budgetIdOf(client, options, budget);
        emitRecord(await client.call(budgetRoutes.get, { id }), RECORD_FIELDS, options);
      }),
    );
  examples(show, ["allot budgets show Groceries", "allot budgets show Rent --account Joint --json"]);

  const create = common(group.command("create").argument("<name>", "the new budget's name"))
    .description("Create a budget and show it")
    .addOption(
      new Option("--type <type>", "goal (save toward a target), recurring (a bill each cycle) or capped")
        .choices(["goal", "recurring", "capped"])
        .makeOptionMandatory(),
    )
    .requiredOption("--target <amount>", "the target balance")
    .addOption(
      new Option(
        "--funding <how>",
        "fund a fixed amount each time, or enough to reach the target by a date (default: recurring → date, capped → fixed, goal → date with --target-date, else fixed)",
      ).choices(Object.keys(FUNDING_CODES)),
    )
    .option("--amount <amount>", "the amount funded on each scheduled day (fixed funding)")
    .option("--schedule <rrule>", "when it is funded, as an RRULE (e.g. 'FREQ=MONTHLY;BYMONTHDAY=1')")
    .option("--target-date <date>", "the day a goal should reach its target (YYYY-MM-DD)")
    .option("--recurrence <rrule>", "a recurring budget's cycle (e.g. FREQ=MONTHLY)")
    .option("--memo <text>", "a note")
    .option("--paused", "create it paused (not funded on its schedule)")
    .action(
      action(
        env,
        async (
          client,
          options: Options & {
            type: TypeWord;
            target: string;
            funding?: FundingWord;
            amount?: string;
            schedule?: string;
            targetDate?: string;
            recurrence?: string;
            memo?: string;
            paused?: boolean;
          },
          name: string,
        ) => {
          const funding: FundingWord =
            options.funding ??
            (options.type === "recurring"
              ? "date"
              : options.type === "capped"
                ? "fixed"
                : options.targetDate
                  ? "date"
                  : "fixed");
          // Flags are checked before any request, so a typo costs nothing.
          const fields = {
            name,
            budget_type: TYPE_CODES[options.type],
            funding_type: FUNDING_CODES[funding],
            target_balance: amountOf("--target", options.target),
            funding_amount: options.amount === undefined ? undefined : amountOf("--amount", options.amount),
            funding_schedule: options.schedule,
            target_date:
              options.targetDate === undefined ? undefined : dateOf("--target-date", options.targetDate),
            recurrence_schedule: options.recurrence,
            memo: options.memo,
            paused: options.paused,
          };
          const created = await client.call(budgetRoutes.create, {
            ...fields,
            bank_account: await resolveAccountId(client, options.account),
          });
          // A schedule on an account without auto-funding never runs by itself: said once, here.
          const account = created.funding_schedule
            ? await client.call(bankAccountRoutes.get, { id: created.bank_account })
            : null;
          const warnings =
            account && !account.auto_funding_enabled ? [autoFundingOffWarning(account.name)] : [];
          if (options.json) printJsonWithWarnings(created, warnings);
          else {
            emitRecord(created, RECORD_FIELDS, options);
            printWarnings(warnings);
          }
        },
      ),
    );
  examples(create, [
    "allot budgets create Vacation --type goal --target 2000 --target-date 2026-07-01 --schedule 'FREQ=MONTHLY;BYMONTHDAY=1'",
    "allot budgets create Groceries --type capped --target 600 --amount 150 --schedule 'FREQ=WEEKLY;BYDAY=FR'",
    "allot budgets create Rent --type recurring --target 1200 --recurrence FREQ=MONTHLY --schedule 'FREQ=MONTHLY;BYMONTHDAY=1,15'",
  ]);

  const update = common(group.command("update").argument("<budget>", "the budget's name or id"))
    .description("Change a budget's name, target, funding or schedules, and show it")
    .option("--name <name>", "a new name")
    .option("--target <amount>", "a new target balance")
    .addOption(
      new Option("--funding <how>", "fixed amount or toward a date").choices(Object.keys(FUNDING_CODES)),
    )
    .option("--amount <amount>", "the amount funded on each scheduled day")
    .option("--schedule <rrule>", "when it is funded, as an RRULE ('' for never)")
    .option("--target-date <date>", "the day a goal should reach its target (YYYY-MM-DD, or none)")
    .option("--recurrence <rrule>", "a recurring budget's cycle")
    .option("--memo <text>", "a note ('' to clear it)")
    .action(
      action(
        env,
        async (
          client,
          options: Options & {
            name?: string;
            target?: string;
            funding?: FundingWord;
            amount?: string;
            schedule?: string;
            targetDate?: string;
            recurrence?: string;
            memo?: string;
          },
          budget: string,
        ) => {
          const changes = {
            name: options.name,
            target_balance: options.target === undefined ? undefined : amountOf("--target", options.target),
            funding_type: options.funding && FUNDING_CODES[options.funding],
            funding_amount: options.amount === undefined ? undefined : amountOf("--amount", options.amount),
            funding_schedule: options.schedule,
            target_date:
              options.targetDate === undefined ? undefined : dateOf("--target-date", options.targetDate),
            recurrence_schedule: options.recurrence,
            memo: options.memo === undefined ? undefined : options.memo || null,
          };
          if (Object.values(changes).every((value) => value === undefined))
            throw new UsageError(
              "Nothing to change: pass --name, --target, --funding, --amount, --schedule, --target-date, --recurrence or --memo.",
            );
          const id = await budgetIdOf(client, options, budget);
          const updated = await client.call(budgetRoutes.update, { id, ...changes });
          emitRecord(updated, RECORD_FIELDS, options);
          printWarnings(updated.warnings);
        },
      ),
    );
  examples(update, [
    "allot budgets update Groceries --target 700 --amount 175",
    "allot budgets update Vacation --name 'Summer trip' --target-date 2026-08-01",
    "allot budgets update Rent --schedule 'FREQ=MONTHLY;BYMONTHDAY=1' --json",
  ]);

  for (const [verb, paused] of [
    ["pause", true],
    ["resume", false],
  ] as const) {
    const command = common(group.command(verb).argument("<budget>", "the budget's name or id"))
      .description(
        paused
          ? "Pause a budget: it is not funded on its schedule until resumed"
          : "Resume a paused budget: events it missed are dropped (the warnings name them)",
      )
      .action(
        action(env, async (client, options, budget: string) => {
          const id = await budgetIdOf(client, options, budget);
          const updated = await client.call(budgetRoutes.update, { id, paused });
          if (options.json || options.csv) emitRecord(updated, RECORD_FIELDS, options);
          else
            process.stdout.write(
              paused
                ? shown`Paused '${updated.name}': it is not funded until \`allot budgets resume '${updated.name}'\`.\n`
                : shown`Resumed '${updated.name}'${updated.next_funding ? `: next funding ${updated.next_funding.amount} on ${updated.next_funding.date}` : ""}.\n`,
            );
          printWarnings(updated.warnings);
        }),
      );
    examples(command, [
      `allot budgets ${verb} Vacation`,
      `allot budgets ${verb} Vacation --account Joint --json`,
    ]);
  }

  const archive = common(group.command("archive").argument("<budget>", "the budget's name or id"))
    .description("Archive a budget (and its fill-up goal): its balance moves to Unallocated")
    .option("-y, --yes", "do not ask for confirmation")
    .action(
      action(env, async (client, options: Options & { yes?: boolean }, budget: string) => {
        const found = await client.call(budgetRoutes.get, { id: await budgetIdOf(client, options, budget) });
        await refuseUnallocated(client, found, "archived");
        requireConsentUpFront("archive", options, budget);
        const question = `Archive '${found.name}' and move its balance of ${found.balance} to Unallocated?`;
        if (!(await confirmAtTerminal(options, question))) {
          process.stderr.write("Nothing archived.\n");
          return;
        }
        const archived = await client.call(budgetRoutes.archive, { id: found.id });
        if (options.json || options.csv) emitRecord(archived, RECORD_FIELDS, options);
        else
          process.stdout.write(
            shown`Archived '${archived.name}': its balance of ${found.balance} moved to Unallocated.\n`,
          );
      }),
    );
  examples(archive, [
    "allot budgets archive 'Old car' --yes",
    "allot budgets archive Vacation --account Joint",
  ]);

  const remove = common(group.command("delete").argument("<budget>", "the budget's name or id"))
    .description(
      "Delete a budget with no allocations (and its fill-up goal): transfers are reversed, the rest goes to Unallocated",
    )
    .option("-y, --yes", "do not ask for confirmation")
    .action(
      action(env, async (client, options: Options & { yes?: boolean }, budget: string) => {
        const found = await client.call(budgetRoutes.get, { id: await budgetIdOf(client, options, budget) });
        await refuseUnallocated(client, found, "deleted");
        requireConsentUpFront("delete", options, budget);
        if (!(await confirmAtTerminal(options, `Delete '${found.name}' for good?`))) {
          process.stderr.write("Nothing deleted.\n");
          return;
        }
        await client.call(budgetRoutes.delete, { id: found.id });
        const deleted = { id: found.id, name: found.name, deleted: true };
        if (options.json || options.csv)
          emitRecord(
            deleted,
            [
              { header: "id", value: (row) => row.id },
              { header: "name", value: (row) => row.name },
              { header: "deleted", value: (row) => row.deleted },
            ],
            options,
          );
        else process.stdout.write(shown`Deleted '${found.name}'.\n`);
      }),
    );
  examples(remove, ["allot budgets delete Typo --yes", "allot budgets delete 0b9c6a4e-… --yes --json"]);
}
