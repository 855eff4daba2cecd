import type { CHANGE_OBJECT_SCHEMAS, Change, ChangeType } from "@allot/contract/changes/change";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "@allot/contract/http/fields";
import { isApiError } from "@allot/sdk/api-error";
import type { Command } from "commander";
import type { z } from "zod";
import { type ApiOptions, addApiOptions, openApiClient } from "../api-session";
import { addExamples } from "../cli-conventions";
import type { CliEnv } from "../env";
import type { Column } from "../format/columns";
import { emitList } from "../format/emit";
import { shown } from "../format/terminal-text";
import { printJson, reportError } from "../output";
import { resolveAccountId } from "../resolve/account";
import { type BudgetNames, budgetNamesOf } from "./transaction-views";
import { positiveInteger } from "./transactions-list";

interface ChangesOptions extends ApiOptions {
  since?: string;
  pageSize?: number;
  json?: boolean;
}

// By the schema of each type: the contract's Change does not tie `object` to `type` in TypeScript.
type LiveObject<T extends ChangeType> = z.output<(typeof CHANGE_OBJECT_SCHEMAS)[T]>;
type Labels = { [T in ChangeType]: (object: LiveObject<T>, budgets: BudgetNames) => string };

const money = (amount: string, currency: string) => `${amount} ${currency}`;
const budgetName = (budgets: BudgetNames, id: string | null) => (id === null ? "-" : (budgets.get(id) ?? id));

/** A line a person reads for each kind of object: what it is called and what it holds. */
const LABELS: Labels = {
  bank_account: (a) => `${a.name}, available ${money(a.available_balance, a.currency)}`,
  budget: (b) => `${b.name}, balance ${money(b.balance, b.balance_currency)}`,
  transaction: (t) => `${t.description}, ${money(t.amount, t.amount_currency)}`,
  allocation: (a, budgets) => `${money(a.amount, a.amount_currency)} to ${budgetName(budgets, a.budget)}`,
  internal_transaction: (i, budgets) =>
    `${money(i.amount, i.amount_currency)} from ${budgetName(budgets, i.src_budget)} to ${budgetName(budgets, i.dst_budget)}`,
  funding_occurrence: (o, budgets) =>
    `${o.kind} ${budgetName(budgets, o.budget)} on ${o.scheduled_date} (${o.status.toLowerCase()})`,
};

const what = (change: Change, budgets: BudgetNames) =>
  change.deleted || change.object === null
    ? "deleted"
    : // Each label takes the object of its own type, which an index by a union cannot express.
      (LABELS[change.type] as (object: unknown, budgets: BudgetNames) => string)(change.object, budgets);

const columns = (budgets: BudgetNames): Column<Change>[] => [
  { header: "Type", value: (change) => change.type },
  { header: "Id", value: (change) => change.id },
  { header: "What", value: (change) => what(change, budgets) },
];

/** An argument as a POSIX shell reads it back: plain words as they are, anything else quoted. */
const shellWord = (text: string) => (/^[\w.@:/-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`);

/** `allot changes …` naming the account as the user did (nothing when they named none). */
const changesCommand = (account: string | undefined) =>
  account === undefined ? "allot changes" : `allot changes ${shellWord(account)}`;

/** `allot changes`: an account's change feed from a cursor (or all of it), every page of it. */
export function registerChangesCommand(command: Command, env: CliEnv): void {
  command
    .argument("[account]", "the account's name or id (default: your default account, or your only one)")
    .option("--since <cursor>", "only what changed after this cursor, which the last run printed")
    .option(
      "--page-size <n>",
      `changes a request (default ${DEFAULT_PAGE_SIZE}, at most ${MAX_PAGE_SIZE}); every page is followed`,
      positiveInteger,
    )
    .option("--json", 'print {"cursor", "changes"} for scripts: keep the cursor for the next --since');
  addExamples(addApiOptions(command), [
    "allot changes Household",
    "allot changes Household --since CURSOR",
    'allot changes Household --json > changes.json   # then: --since "$(jq -r .cursor changes.json)"',
  ]).action((account: string | undefined, options: ChangesOptions) => listChanges(env, account, options));
}

async function listChanges(env: CliEnv, account: string | undefined, options: ChangesOptions): Promise<void> {
  try {
    const client = await openApiClient(env, options);
    const id = await resolveAccountId(client, account);
    const feed = { cursor: options.since ?? "", changes: [] as Change[] };
    for await (const page of client.changes.iterate(id, {
      since: options.since,
      pageSize: options.pageSize,
    })) {
      feed.cursor = page.cursor;
      feed.changes.push(...page.changes);
    }
    if (options.json) {
      printJson(feed);
      return;
    }
    emitList(
      feed.changes,
      columns(await budgetNamesOf(client, id)),
      {},
      "Nothing changed since that cursor.",
    );
    process.stderr.write(
      shown`Next time, for what changes after this: ${changesCommand(account)} --since ${feed.cursor}\n`,
    );
  } catch (error) {
    reportError(error, Boolean(options.json));
    if (!options.json && isApiError(error, 410) && error.code === "cursor_expired")
      process.stderr.write(
        shown`hint: that cursor is too old. Run \`${changesCommand(account)}\` again without --since for everything, and keep the new cursor it prints.\n`,
      );
  }
}
