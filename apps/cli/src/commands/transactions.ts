import { transactionRoutes } from "@allot/contract/transactions/routes";
import { TRANSACTION_TYPES } from "@allot/contract/transactions/transaction";
import { type Command, Option } from "commander";
import { type ApiOptions, openApiClient } from "../api-session";
import { addExamples } from "../cli-conventions";
import { overdraftsAfter, printWarnings } from "../cli-warnings";
import { confirmDestructive } from "../confirm";
import type { CliEnv } from "../env";
import { emitList, type OutputOptions } from "../format/emit";
import { jsonText, shown } from "../format/terminal-text";
import { printJson, UsageError } from "../output";
import { resolveBudgetId } from "../resolve/budget-names";
import { act, onOne } from "./transaction-command";
import { amountFlag, dateFlag, transactionId } from "./transaction-flags";
import { accountLabelsOf, allocationColumns, emitTransaction } from "./transaction-views";
import { registerCreateCommand } from "./transactions-create";
import { registerListCommand } from "./transactions-list";
import { registerReceiptCommands } from "./transactions-receipts";
import { parseSplitPairs } from "./transactions-split";

type Options = ApiOptions & OutputOptions;

/** `allot transactions list|show|create|edit|delete|split|resolve|attach|detach|download`. */
export function registerTransactionsCommands(group: Command, env: CliEnv): void {
  addExamples(group, [
    "allot transactions list --from 2026-01-01 --budget Groceries",
    "allot transactions split TRANSACTION_ID --into groceries=60 rent=20",
    "allot transactions show TRANSACTION_ID --json",
    "allot transactions attach TRANSACTION_ID --image receipt.jpg",
  ]);
  registerListCommand(group, env);

  onOne(group, "show", "Show one transaction: dates, amount, category, budgets, receipt files", [
    "allot transactions show TRANSACTION_ID",
    "allot transactions show TRANSACTION_ID --json",
  ]).action((id: string, options: Options) =>
    act(options, async () => {
      const input = { id: transactionId(id) };
      const client = await openApiClient(env, options);
      await emitTransaction(client, await client.call(transactionRoutes.get, input), options);
    }),
  );

  registerCreateCommand(group, env);

  onOne(group, "edit", "Change a transaction's description, memo or type (the bank's own fields stay)", [
    'allot transactions edit TRANSACTION_ID --description "Farmers market"',
    'allot transactions edit TRANSACTION_ID --memo "shared with Sam" --type pin_purchase',
    "allot transactions edit TRANSACTION_ID --memo ''       # clears the memo",
  ])
    .option("--description <text>", "the description people read (the bank's own text is kept)")
    .option("--memo <text>", "a note ('' clears it)")
    .addOption(new Option("--type <type>", "the transaction type").choices(TRANSACTION_TYPES))
    .action((id: string, options: Options & { description?: string; memo?: string; type?: string }) =>
      act(options, async () => {
        const changes = {
          description: options.description,
          memo: options.memo,
          transaction_type: options.type as (typeof TRANSACTION_TYPES)[number] | undefined,
        };
        if (Object.values(changes).every((value) => value === undefined))
          throw new UsageError(
            "Nothing to change: pass --description, --memo or --type (see `allot transactions edit --help`).",
            "nothing_to_change",
          );
        const input = { id: transactionId(id), ...changes };
        const client = await openApiClient(env, options);
        await emitTransaction(client, await client.call(transactionRoutes.update, input), options);
      }),
    );

  onOne(
    group,
    "delete",
    "Delete a transaction: its balance changes are reversed, its allocations removed",
    ["allot transactions delete TRANSACTION_ID", "allot transactions delete TRANSACTION_ID --yes --json"],
    { printsResource: false },
  )
    .option("--yes", "delete without asking (needed when not at a terminal)")
    .action((id: string, options: ApiOptions & { json?: boolean; yes?: boolean }) =>
      act(options, async () => {
        const input = { id: transactionId(id) };
        const question = `Delete transaction ${input.id}?`;
        // A script without --yes is refused before anything is sent.
        if (!options.yes && !(process.stdin.isTTY && process.stderr.isTTY))
          await confirmDestructive(question, false);
        const client = await openApiClient(env, options);
        if (!options.yes) {
          // A person at a terminal is asked, and shown what they are about to lose.
          const row = await client.call(transactionRoutes.get, input);
          await confirmDestructive(
            `Delete transaction ${input.id} (${row.description}, ${row.amount} ${row.amount_currency})?`,
            false,
          );
        }
        await client.call(transactionRoutes.delete, input);
        if (options.json) printJson({ id: input.id, deleted: true });
        else
          process.stdout.write(shown`Deleted transaction ${input.id}; its budgets' balances are restored.\n`);
      }),
    );

  onOne(group, "split", "Divide a transaction among budgets; what is left stays in Unallocated", [
    "allot transactions split TRANSACTION_ID --into groceries=60 rent=20",
    'allot transactions split TRANSACTION_ID --into "Eating out=12.50" --json',
    "allot transactions split TRANSACTION_ID --reset      # all back to Unallocated",
  ])
    .option(
      "--into [pairs...]",
      "BUDGET=AMOUNT pairs, budgets by name or id, amounts positive (none: all back to Unallocated)",
    )
    .option("--reset", "move everything back to Unallocated")
    .action((id: string, options: Options & { into?: string[] | true; reset?: boolean }) =>
      act(options, async () => {
        const words = Array.isArray(options.into) ? options.into : [];
        if (options.reset && words.length > 0)
          throw new UsageError("Pass either --into BUDGET=AMOUNT… or --reset, not both.", "usage_error");
        if (!options.reset && options.into === undefined)
          throw new UsageError(
            "Say where the money goes: --into groceries=60 rent=20, or --reset to put it all back in Unallocated.",
            "usage_error",
          );
        // Every pair is checked before the first request.
        const pairs = parseSplitPairs(words);
        const input = { id: transactionId(id) };
        const client = await openApiClient(env, options);
        const { bank_account: account } = await client.call(transactionRoutes.get, input);
        const splits: Record<string, string> = {};
        for (const pair of pairs) {
          const budget = await resolveBudgetId(client, account, pair.budget);
          if (budget in splits)
            throw new UsageError(
              `'${pair.budget}' names a budget already in --into: give each budget once.`,
              "invalid_split",
            );
          splits[budget] = pair.amount;
        }
        const allocations = await client.call(transactionRoutes.split, { ...input, splits });
        const { budgetNames } = await accountLabelsOf(client, account, options);
        emitList(allocations, allocationColumns(budgetNames), options);
        // The API lets a split overdraw a budget (spec); the CLI says so, since it is rarely meant.
        const warnings = await overdraftsAfter(client, allocations);
        if (warnings.length === 0) return;
        // The JSON answer is a list, with no room beside it: the warnings are one JSON object on stderr.
        if (options.json) process.stderr.write(`${jsonText({ warnings }, 2)}\n`);
        else printWarnings(warnings);
      }),
    );

  onOne(group, "resolve", "Post a pending transaction, with its final amount when that changed", [
    "allot transactions resolve TRANSACTION_ID --posted-date 2026-01-31",
    "allot transactions resolve TRANSACTION_ID --posted-date 2026-01-31 --amount -23.40 --json",
  ])
    .requiredOption("--posted-date <date>", "when the bank posted it (2026-01-31 or an ISO date-time)")
    .option("--amount <amount>", "the final amount, when it differs (e.g. -23.40)")
    .action((id: string, options: Options & { postedDate: string; amount?: string }) =>
      act(options, async () => {
        const input = {
          id: transactionId(id),
          posted_date: dateFlag("--posted-date", options.postedDate),
          amount: options.amount === undefined ? undefined : amountFlag("--amount", options.amount),
        };
        const client = await openApiClient(env, options);
        await emitTransaction(client, await client.call(transactionRoutes.resolvePending, input), options);
      }),
    );

  registerReceiptCommands(group, env);
}
