import { Command } from "commander";
import { addExamples, applyConventions } from "./cli-conventions";
import type { CliEnv } from "./env";
import { addTopLevelCommands, type TopLevelCommand } from "./lazy-commands";
import { CLI_VERSION } from "./version";

/**
 * allot's top-level commands in the order `allot --help` lists them: the one place their names and
 * one-line descriptions live. Each module is imported when its command runs (lazy-commands.ts).
 */
const COMMANDS: readonly TopLevelCommand[] = [
  {
    name: "admin",
    usage: "",
    description:
      "Administer the database directly (with the embedded database, stop the server first: one process at a time); read the server's outbox (`mail`, at any time)",
    load: async () => (await import("./commands/admin")).registerAdminCommands,
  },
  {
    name: "login",
    usage: "[options]",
    description:
      "Log in and store the credentials in a profile: the login session, or an API key made for the CLI",
    load: async () => (await import("./commands/session")).registerLoginCommand,
  },
  {
    name: "logout",
    usage: "[options]",
    description: "End the profile's session on the server (if it holds one) and forget its credentials",
    load: async () => (await import("./commands/session")).registerLogoutCommand,
  },
  {
    name: "whoami",
    usage: "[options]",
    description: "Show who you are authenticated as: user, profile, server, credential",
    load: async () => (await import("./commands/whoami")).registerWhoamiCommand,
  },
  {
    name: "profiles",
    usage: "",
    description:
      "List the profiles (server and credentials) in the config file, choose the current one, remove one",
    load: async () => (await import("./commands/profiles")).registerProfilesCommands,
  },
  {
    name: "import",
    usage: "",
    description: "Import bank data into an account: a scraper's JSON, an OFX/QFX statement or a CSV export",
    load: async () => (await import("./commands/import")).registerImportCommands,
  },
  {
    name: "budgets",
    usage: "",
    description: "List, show, create, change, pause, archive and delete the budgets of an account",
    load: async () => (await import("./commands/budgets")).registerBudgetsCommands,
  },
  {
    name: "transfer",
    usage: "[options] <amount>",
    description: "Move money from one budget to another of the same account",
    load: async () => (await import("./commands/transfer")).registerTransferCommand,
  },
  {
    name: "fund",
    usage: "",
    description: "Fund budgets on their schedules now, and see what the schedules fund and when",
    load: async () => (await import("./commands/fund")).registerFundCommands,
  },
  {
    name: "forecast",
    usage: "[options]",
    description:
      "Run an account's funding forward without writing: each budget through --until, a chart of Unallocated, what-ifs with --item",
    load: async () => (await import("./commands/forecast")).registerForecastCommand,
  },
  {
    name: "transactions",
    usage: "",
    description: "List, inspect, edit, split among budgets, resolve and delete transactions; attach receipts",
    load: async () => (await import("./commands/transactions")).registerTransactionsCommands,
  },
  {
    name: "accounts",
    usage: "",
    description: "Your bank accounts: list, show, create, update, delete",
    load: async () => (await import("./commands/accounts")).registerAccountsCommands,
  },
  {
    name: "categories",
    usage: "",
    description: 'Transaction categories ("Group : Name"): list, create, rename, archive, delete',
    load: async () => (await import("./commands/categories")).registerCategoriesCommands,
  },
  {
    name: "keys",
    usage: "",
    description: "Your API keys (needs `allot login`): list, create, revoke, revoke-all",
    load: async () => (await import("./commands/keys")).registerKeysCommands,
  },
  {
    name: "invite",
    usage: "[options] <email>",
    description: "Invite someone by email to co-own an account (needs `allot login`)",
    load: async () => (await import("./commands/invite")).registerInviteCommand,
  },
  {
    name: "invitations",
    usage: "",
    description:
      "Pending invitations: an account's, the ones you sent, and cancelling them (needs `allot login`)",
    load: async () => (await import("./commands/invite")).registerInvitationsCommands,
  },
  {
    name: "occurrences",
    usage: "[options]",
    description: "List an account's funding and recurrence events: when each was due and how it went",
    load: async () => (await import("./commands/occurrences")).registerOccurrencesCommand,
  },
  {
    name: "activity",
    usage: "[options]",
    description: "Who changed what in an account, newest first (times on the account's clock)",
    load: async () => (await import("./commands/activity")).registerActivityCommand,
  },
  {
    name: "changes",
    usage: "[options] [account]",
    description: "What changed in an account since a cursor (deletions too); without --since, all of it",
    load: async () => (await import("./commands/changes")).registerChangesCommand,
  },
  {
    name: "webhooks",
    usage: "",
    description:
      "Webhooks: have account events POSTed to a URL, signed (list, create, update, delete, rotate-secret, test, deliveries, redeliver)",
    load: async () => (await import("./commands/webhooks")).registerWebhooksCommands,
  },
  {
    name: "api",
    usage: "[options] <method> <path>",
    description: "Call any API endpoint with your credential and print its JSON answer",
    load: async () => (await import("./commands/api")).registerApiCommand,
  },
  {
    name: "completion",
    usage: "<shell>",
    description: "Print a shell completion script for allot's commands and options",
    load: async () => (await import("./commands/completion")).registerCompletionCommand,
  },
];

/**
 * The `allot` program, its top-level commands named and described but not loaded: main.ts loads
 * the one it runs (loadInvokedCommand), `allot completion` all of them. `readEnv` is called once, by
 * the first command loaded.
 */
export function createProgram(readEnv: () => Promise<CliEnv>): Command {
  const program = new Command()
    .name("allot")
    .version(CLI_VERSION, "-V, --version", "print the version of allot")
    .description(
      "Allot from the command line: `admin` commands work on the database, the others talk to the API",
    );
  addExamples(program, [
    "allot login --email me@example.com --create-api-key",
    "allot whoami",
    "allot --help                 # then: allot COMMAND --help",
  ]);
  addTopLevelCommands(program, COMMANDS, readEnv);
  // Last: exit codes and help hints reach every command (a loaded module's, when it loads).
  return applyConventions(program);
}
