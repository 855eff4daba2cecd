import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "@allot/contract/http/fields";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import {
  TRANSACTION_ORDERING,
  TRANSACTION_TYPES,
  type TransactionView,
} from "@allot/contract/transactions/transaction";
import type { RouteInput } from "@allot/sdk/route-types";
import { type Command, InvalidArgumentError, Option } from "commander";
import { type ApiOptions, addApiOptions, openApiClient } from "../api-session";
import { addExamples } from "../cli-conventions";
import type { CliEnv } from "../env";
import { addOutputOptions, emitList, type OutputOptions } from "../format/emit";
import { reportError } from "../output";
import { resolveAccountId } from "../resolve/account";
import { resolveBudgetId } from "../resolve/budget-names";
import { resolveCategory } from "../resolve/category";
import { amountFlag, dateFlag } from "./transaction-flags";
import { accountLabelsOf, listColumns } from "./transaction-views";

interface ListOptions extends ApiOptions, OutputOptions {
  account?: string;
  from?: string;
  to?: string;
  postedFrom?: string;
  postedTo?: string;
  minAmount?: string;
  maxAmount?: string;
  pending?: boolean;
  posted?: boolean;
  category?: string;
  budget?: string;
  search?: string;
  merchant?: string;
  type?: string;
  details?: boolean;
  withoutDetails?: boolean;
  unallocated?: boolean;
  allocated?: boolean;
  uncategorized?: boolean;
  categorized?: boolean;
  /** One of the --ordering choices commander checked. */
  ordering?: RouteInput<typeof transactionRoutes.list>["ordering"];
  limit?: number;
}

/** A `--limit` value: a whole number, at least 1. */
export function positiveInteger(value: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1)
    throw new InvalidArgumentError("Give a whole number of rows, at least 1.");
  return Number(value);
}

/** A flag's value read when it was given. */
const given = <T>(value: string | undefined, read: (value: string) => T) =>
  value === undefined ? undefined : read(value);

/** Two flags for one boolean filter (`--pending` / `--posted`): the first means true. */
const either = (yes?: boolean, no?: boolean) => (yes ? true : no ? false : undefined);

/** `allot transactions list`: the API's filters as flags, a page by default, `--limit N` across pages. */
export function registerListCommand(group: Command, env: CliEnv): Command {
  const orderings = TRANSACTION_ORDERING.flatMap((field) => [field, `-${field}`]);
  const command = group
    .command("list")
    .description("List an account's transactions, newest first, with the API's filters")
    .option("--account <name-or-id>", "the bank account (default: your default account, or your only one)")
    .option("--from <date>", "transaction date on or after (2026-01-01)")
    .option("--to <date>", "transaction date on or before (the whole day)")
    .option("--posted-from <date>", "posted date on or after")
    .option("--posted-to <date>", "posted date on or before")
    .option("--min-amount <amount>", "amount at least this (signed: -50 includes debits up to 50)")
    .option("--max-amount <amount>", "amount at most this (signed: -50 means debits of 50 or more)")
    .addOption(new Option("--pending", "only pending transactions").conflicts("posted"))
    .option("--posted", "only posted transactions")
    .option("--category <name-or-id>", "the transaction's category ('Group : Name', a unique name, or an id)")
    .option("--budget <name-or-id>", "transactions with an allocation to this budget")
    .option("--search <text>", "text in the description, the bank's text or the party")
    .option("--merchant <text>", "text in the merchant's name")
    .addOption(new Option("--type <type>", "the transaction type").choices(TRANSACTION_TYPES))
    .addOption(
      new Option("--details", "only transactions with the bank's details").conflicts("withoutDetails"),
    )
    .option("--without-details", "only transactions still waiting for the bank's details")
    .addOption(
      new Option("--unallocated", "only transactions with nothing in a budget but Unallocated").conflicts(
        "allocated",
      ),
    )
    .option("--allocated", "only transactions with money in a budget other than Unallocated")
    .addOption(new Option("--uncategorized", "only transactions without a category").conflicts("categorized"))
    .option("--categorized", "only transactions with a category")
    .addOption(
      new Option(
        "--ordering <field>",
        "sort by a field; a leading '-' reverses (default -transaction_date)",
      ).choices(orderings),
    )
    .option(
      "--limit <n>",
      `at most this many rows, following pages (default: one page of ${DEFAULT_PAGE_SIZE})`,
      positiveInteger,
    );
  addExamples(addApiOptions(addOutputOptions(command)), [
    "allot transactions list",
    "allot transactions list --account Checking --from 2026-01-01 --to 2026-01-31 --budget Groceries",
    "allot transactions list --pending --min-amount -100 --max-amount -20 --ordering amount",
    "allot transactions list --unallocated --limit 500 --csv > to-split.csv",
  ]).action((options: ListOptions) => listTransactions(env, options));
  return command;
}

async function listTransactions(env: CliEnv, options: ListOptions): Promise<void> {
  try {
    // Every flag is read before the first request: a typo exits 2 having sent nothing.
    const amounts = {
      amount_min: given(options.minAmount, (v) => amountFlag("--min-amount", v)),
      amount_max: given(options.maxAmount, (v) => amountFlag("--max-amount", v)),
    };
    const dates = {
      date_from: given(options.from, (v) => dateFlag("--from", v)),
      date_to: given(options.to, (v) => dateFlag("--to", v)),
      posted_date_from: given(options.postedFrom, (v) => dateFlag("--posted-from", v)),
      posted_date_to: given(options.postedTo, (v) => dateFlag("--posted-to", v)),
    };
    const client = await openApiClient(env, options);
    const account = await resolveAccountId(client, options.account);
    const category = await given(options.category, (v) => resolveCategory(client, v));
    const limit = options.limit ?? DEFAULT_PAGE_SIZE;
    const query = {
      bank_account: account,
      ...dates,
      ...amounts,
      pending: either(options.pending, options.posted),
      has_details: either(options.details, options.withoutDetails),
      unallocated: either(options.unallocated, options.allocated),
      uncategorized: either(options.uncategorized, options.categorized),
      category: category?.id,
      budget: await given(options.budget, (v) => resolveBudgetId(client, account, v)),
      search: options.search,
      merchant_name: options.merchant,
      transaction_type: options.type as (typeof TRANSACTION_TYPES)[number] | undefined,
      ordering: options.ordering,
      page_size: Math.min(limit, MAX_PAGE_SIZE),
    };
    const rows: TransactionView[] = [];
    for await (const row of client.paginate(transactionRoutes.list, query)) {
      rows.push(row);
      if (rows.length >= limit) break;
    }
    emitList(
      rows,
      listColumns(await accountLabelsOf(client, account, options)),
      options,
      "No transactions match: loosen the filters or try another --account.",
    );
  } catch (error) {
    reportError(error, Boolean(options.json));
  }
}
