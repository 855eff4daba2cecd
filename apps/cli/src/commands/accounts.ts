import type { BankAccountSchema } from "@allot/contract/bank-accounts/bank-account";
import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { DECIMAL_PATTERN } from "@allot/contract/http/fields";
import { localDate } from "@allot/domain/calendar/local-days";
import { type Command, Option } from "commander";
import type { z } from "zod";
import { type ApiOptions, addApiOptions, openApiClient } from "../api-session";
import { confirmDestructive } from "../confirm";
import type { CliEnv } from "../env";
import type { Column } from "../format/columns";
import { addOutputOptions, emitList, emitRecord, type OutputOptions } from "../format/emit";
import { shown } from "../format/terminal-text";
import { reportNeedingLogin } from "../login-hint";
import { printJson, reportError, UsageError } from "../output";
import { resolveAccountId } from "../resolve/account";
import { resolveBankId } from "../resolve/bank";

type Options = ApiOptions & OutputOptions;
type BankAccount = z.infer<typeof BankAccountSchema>;

const TYPES = { C: "checking", S: "savings", X: "credit card" } as const;
// People type words, the API takes letters: both are accepted.
const TYPE_CHOICES = ["checking", "savings", "credit-card", "C", "S", "X"];
const TYPE_LETTERS: Record<string, "C" | "S" | "X"> = { checking: "C", savings: "S", "credit-card": "X" };
const onOff = (value: boolean) => (value ? "on" : "off");
// The last import's day in the account's calendar, as its transactions' days are shown.
const lastImportDay = (a: BankAccount) =>
  a.last_imported_at === null ? null : localDate(new Date(a.last_imported_at), a.timezone);

const LIST_COLUMNS: Column<BankAccount>[] = [
  { header: "Name", value: (a) => a.name },
  { header: "Type", value: (a) => TYPES[a.account_type] },
  { header: "Currency", value: (a) => a.currency },
  { header: "Available", value: (a) => a.available_balance, money: true },
  { header: "Posted", value: (a) => a.posted_balance, money: true },
  { header: "Auto-funding", value: (a) => onOff(a.auto_funding_enabled) },
  { header: "Last import", value: lastImportDay },
  { header: "Id", value: (a) => a.id },
];

const FIELDS: Column<BankAccount>[] = [
  { header: "id", value: (a) => a.id },
  { header: "name", value: (a) => a.name },
  { header: "bank", value: (a) => a.bank },
  { header: "type", value: (a) => TYPES[a.account_type] },
  { header: "account number", value: (a) => a.account_number },
  { header: "currency", value: (a) => a.currency },
  { header: "available balance", value: (a) => a.available_balance, money: true },
  { header: "posted balance", value: (a) => a.posted_balance, money: true },
  { header: "auto-funding", value: (a) => onOff(a.auto_funding_enabled) },
  { header: "unallocated budget", value: (a) => a.unallocated_budget },
  { header: "owners", value: (a) => a.owners.join(", ") },
  { header: "time zone", value: (a) => a.timezone },
  { header: "last imported at", value: (a) => a.last_imported_at },
  { header: "last posted through", value: (a) => a.last_posted_through },
  { header: "created at", value: (a) => a.created_at },
];

/** `allot accounts`: list, show, create, update and delete the caller's bank accounts. */
export function registerAccountsCommands(accounts: Command, env: CliEnv): void {
  accounts.addHelpText(
    "after",
    '\nExamples:\n  $ allot accounts\n  $ allot accounts show Checking\n  $ allot accounts create --name Checking --bank "First Bank" --balance 1250.00\n',
  );

  addApiOptions(addOutputOptions(accounts.command("list", { isDefault: true })))
    .description("List your bank accounts with their balances (the default)")
    .addOption(new Option("--type <type>", "only accounts of this type").choices(TYPE_CHOICES))
    .addHelpText("after", "\nExamples:\n  $ allot accounts\n  $ allot accounts list --type savings --csv\n")
    .action((options: Options & { type?: string }) =>
      run(options, async () => {
        const client = await openApiClient(env, options);
        const rows: BankAccount[] = [];
        const account_type = options.type ? typeLetter(options.type) : undefined;
        for await (const account of client.paginate(bankAccountRoutes.list, {
          account_type,
          ordering: "name",
          page_size: 500,
        }))
          rows.push(account);
        emitList(
          rows,
          LIST_COLUMNS,
          options,
          "No bank accounts yet: create one with `allot accounts create`.",
        );
      }),
    );

  addApiOptions(addOutputOptions(accounts.command("show")))
    .description("Show one account (by name or id; default: your default or only account)")
    .argument("[account]", "the account's name or id")
    .addHelpText("after", "\nExamples:\n  $ allot accounts show\n  $ allot accounts show Savings --json\n")
    .action((nameOrId: string | undefined, options: Options) =>
      run(options, async () => {
        const client = await openApiClient(env, options);
        const id = await resolveAccountId(client, nameOrId);
        emitRecord(await client.call(bankAccountRoutes.get, { id }), FIELDS, options);
      }),
    );

  addApiOptions(addOutputOptions(accounts.command("create")))
    .description("Create a bank account; you own it and its Unallocated budget is made with it")
    .requiredOption("--name <name>", "what to call the account")
    .requiredOption("--bank <bank>", "the bank, by name or id (see GET /api/v1/banks/)")
    .addOption(new Option("--type <type>", "the account's type (default checking)").choices(TYPE_CHOICES))
    .option("--currency <code>", "ISO 4217 code (default: the bank's currency)")
    .option("--account-number <number>", "the bank's account number (up to 32 characters)")
    .option("--balance <amount>", "the opening balance, posted and available")
    .option("--posted-balance <amount>", "the opening posted balance (instead of --balance)")
    .option("--available-balance <amount>", "the opening available balance (instead of --balance)")
    .addOption(
      // Alone it means on; `on|off` as before. Off by default, as the API makes it.
      new Option(
        "--auto-funding [on|off]",
        "fund budgets on their schedules automatically (default: off)",
      ).choices(["on", "off"]),
    )
    .addHelpText(
      "after",
      '\nExamples:\n  $ allot accounts create --name Checking --bank "First Bank" --balance 1250.00 --auto-funding\n  $ allot accounts create --name Card --bank BANK_ID --type credit-card --currency EUR --auto-funding off --json\n',
    )
    .action((options: Options & CreateFlags) =>
      run(options, async () => {
        const balance = amount("--balance", options.balance);
        const posted = amount("--posted-balance", options.postedBalance) ?? balance;
        const available = amount("--available-balance", options.availableBalance) ?? balance;
        const client = await openApiClient(env, options);
        const account = await client.call(bankAccountRoutes.create, {
          name: options.name,
          bank: await resolveBankId(client, options.bank),
          account_type: options.type ? typeLetter(options.type) : undefined,
          currency: options.currency?.toUpperCase(),
          account_number: options.accountNumber,
          posted_balance: posted,
          available_balance: available,
          auto_funding_enabled: options.autoFunding === undefined ? undefined : options.autoFunding !== "off",
        });
        emitRecord(account, FIELDS, options);
        if (!options.json && !options.csv) {
          process.stderr.write(
            shown`Created '${account.name}'. Next: add budgets with \`allot budgets create --account "${account.name}" …\`.\n`,
          );
          if (!account.auto_funding_enabled)
            process.stderr.write(shown`note: ${autoFundingOffWarning(account.name)}\n`);
        }
      }),
    );

  addApiOptions(addOutputOptions(accounts.command("update")))
    .description("Change an account's name, account number or auto-funding")
    .argument("<account>", "the account's name or id")
    .option("--name <name>", "a new name")
    .option("--account-number <number>", "a new account number")
    .option("--no-account-number", "remove the account number")
    .addOption(
      new Option("--auto-funding <on|off>", "run scheduled funding automatically, or only on demand").choices(
        ["on", "off"],
      ),
    )
    .addHelpText(
      "after",
      '\nExamples:\n  $ allot accounts update Checking --name "Main checking"\n  $ allot accounts update Checking --auto-funding off --no-account-number\n',
    )
    .action((nameOrId: string, options: Options & UpdateFlags) =>
      run(options, async () => {
        const changes = {
          name: options.name,
          account_number: options.accountNumber === false ? null : options.accountNumber,
          auto_funding_enabled: options.autoFunding ? options.autoFunding === "on" : undefined,
        };
        if (Object.values(changes).every((value) => value === undefined))
          throw new UsageError(
            "Nothing to change: pass --name, --account-number, --no-account-number or --auto-funding on|off.",
          );
        const client = await openApiClient(env, options);
        const id = await resolveAccountId(client, nameOrId);
        emitRecord(await client.call(bankAccountRoutes.update, { id, ...changes }), FIELDS, options);
      }),
    );

  addApiOptions(accounts.command("delete"))
    .description("Delete an account with its budgets, transactions and allocations (needs `allot login`)")
    .argument("<account>", "the account's name or id")
    .option("--yes", "do not ask: delete it")
    .option("--json", "print JSON for scripts")
    .addHelpText(
      "after",
      '\nExamples:\n  $ allot accounts delete "Old card"\n  $ allot accounts delete ACCOUNT_ID --yes --json\n',
    )
    .action((nameOrId: string, options: ApiOptions & { yes?: boolean; json?: boolean }) =>
      run(
        options,
        async () => {
          const client = await openApiClient(env, options);
          const id = await resolveAccountId(client, nameOrId);
          const account = await client.call(bankAccountRoutes.get, { id });
          await confirmDestructive(
            `Delete account '${account.name}' with all its budgets, transactions and allocations?`,
            options.yes,
          );
          await client.call(bankAccountRoutes.delete, { id });
          if (options.json) printJson({ id, name: account.name, deleted: true });
          else process.stdout.write(shown`Deleted account '${account.name}'.\n`);
        },
        reportNeedingLogin,
      ),
    );
}

/** Said when an account's schedules will not run by themselves, with the command that changes it. */
export const autoFundingOffWarning = (accountName: string) =>
  `auto-funding is off for '${accountName}': its budgets are funded on their schedules only by \`allot fund run\`. Turn it on with \`allot accounts update "${accountName}" --auto-funding on\`.`;

interface CreateFlags {
  name: string;
  bank: string;
  type?: string;
  currency?: string;
  accountNumber?: string;
  balance?: string;
  postedBalance?: string;
  availableBalance?: string;
  /** true: the flag alone. */
  autoFunding?: "on" | "off" | true;
}

interface UpdateFlags {
  name?: string;
  accountNumber?: string | false;
  autoFunding?: "on" | "off";
}

const typeLetter = (type: string) => TYPE_LETTERS[type] ?? (type as "C" | "S" | "X");

/** An amount flag as the API's decimal string, checked here so a typo is a usage error. */
function amount(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!DECIMAL_PATTERN.test(value.trim()))
    throw new UsageError(
      `${flag} must be an amount like 1250.00 or -20.5, not '${value}'.`,
      "invalid_amount",
    );
  return value.trim();
}

async function run(
  options: { json?: boolean },
  work: () => Promise<void>,
  report: (error: unknown, json: boolean) => void = reportError,
): Promise<void> {
  try {
    await work();
  } catch (error) {
    report(error, Boolean(options.json));
  }
}
