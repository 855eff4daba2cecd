import { budgetRoutes } from "@allot/contract/budgets/routes";
import { DECIMAL_PATTERN } from "@allot/contract/http/fields";
import { internalTransactionRoutes } from "@allot/contract/internal-transactions/routes";
import type { Command } from "commander";
import { type ApiOptions, addApiOptions, openApiClient } from "../api-session";
import { overdraftWarnings, printJsonWithWarnings, printWarnings } from "../cli-warnings";
import type { CliEnv } from "../env";
import { addOutputOptions, emitList, type OutputOptions } from "../format/emit";
import { shown } from "../format/terminal-text";
import { reportError, UsageError } from "../output";
import { resolveAccountId } from "../resolve/account";
import { resolveBudgetId } from "../resolve/budget-names";

interface TransferOptions extends ApiOptions, OutputOptions {
  from: string;
  to: string;
  account?: string;
  date?: string;
}

interface BalanceRow {
  budget: string;
  balance: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `allot transfer AMOUNT --from BUDGET --to BUDGET`: an internal transaction between two budgets of
 * one account, by name or id, showing both balances just after it.
 */
export function registerTransferCommand(command: Command, env: CliEnv): void {
  const transfer = addOutputOptions(
    addApiOptions(
      command
        .argument("<amount>", "how much to move, e.g. 50 or 12.50")
        .requiredOption("--from <budget>", "the budget the money leaves (name or id)")
        .requiredOption("--to <budget>", "the budget the money goes to (name or id)")
        .option("--account <name-or-id>", "the bank account (default: your default or only account)")
        .option("--date <date>", "the transfer's effective date, YYYY-MM-DD (default: now)"),
    ),
  ).action(async (amountText: string, options: TransferOptions) => {
    try {
      // Checked before the transfer is made, not when printing it.
      if (options.json && options.csv) throw new UsageError("Choose one of --json and --csv.");
      const amount = amountText.trim();
      // Negative amounts never get here (commander reads -5 as an option): swap --from and --to.
      if (!DECIMAL_PATTERN.test(amount))
        throw new UsageError(
          `AMOUNT must be a positive amount such as 50 or 12.50, not '${amountText}'.`,
          "invalid_amount",
        );
      if (options.date !== undefined && !DATE.test(options.date))
        throw new UsageError(`--date must be a date, YYYY-MM-DD, not '${options.date}'.`, "invalid_date");
      const client = await openApiClient(env, options);
      const accountId = await resolveAccountId(client, options.account);
      const [src, dst] = await Promise.all([
        resolveBudgetId(client, accountId, options.from),
        resolveBudgetId(client, accountId, options.to),
      ]);
      if (src === dst)
        throw new UsageError("--from and --to name the same budget: choose two different budgets.");
      const made = await client.call(internalTransactionRoutes.create, {
        bank_account: accountId,
        amount,
        src_budget: src,
        dst_budget: dst,
        effective_date: options.date,
      });
      // The names as stored (the arguments may be ids or differ in case), balances as just after it.
      const [from, to] = await Promise.all([
        client.call(budgetRoutes.get, { id: src }),
        client.call(budgetRoutes.get, { id: dst }),
      ]);
      // The API allows an overdrawn source (spec); the CLI says so, since it is rarely meant. Its
      // balance now, not the one at a back-dated --date.
      const warnings = overdraftWarnings([
        { name: from.name, balance: from.balance, currency: from.balance_currency },
      ]);
      if (options.json) {
        printJsonWithWarnings(made, warnings);
        return;
      }
      const rows: BalanceRow[] = [
        { budget: from.name, balance: made.src_budget_balance },
        { budget: to.name, balance: made.dst_budget_balance },
      ];
      if (!options.csv)
        process.stdout.write(
          shown`Moved ${made.amount} ${made.amount_currency} from '${from.name}' to '${to.name}'.\n`,
        );
      emitList(
        rows,
        [
          { header: "Budget", value: (row) => row.budget },
          { header: "Balance", value: (row) => row.balance, money: true },
        ],
        options,
      );
      printWarnings(warnings);
    } catch (error) {
      reportError(error, Boolean(options.json));
    }
  });
  transfer.addHelpText(
    "after",
    [
      "",
      "Examples:",
      "  $ allot transfer 50 --from Unallocated --to Groceries",
      "  $ allot transfer 12.50 --from 'Eating out' --to Vacation --account Joint",
      "  $ allot transfer 100 --from Groceries --to Unallocated --json   # undo a transfer by swapping",
      "",
    ].join("\n"),
  );
}
