import { Command } from "commander";
import { addExamples, applyConventions } from "./cli-conventions";
import { registerAccountsCommands } from "./commands/accounts";
import { registerActivityCommand } from "./commands/activity";
import { registerAdminCommands } from "./commands/admin";
import { registerApiCommand } from "./commands/api";
import { registerBudgetsCommands } from "./commands/budgets";
import { registerCategoriesCommands } from "./commands/categories";
import { registerChangesCommand } from "./commands/changes";
import { registerCompletionCommand } from "./commands/completion";
import { registerFundCommands } from "./commands/fund";
import { registerImportCommands } from "./commands/import";
import { registerInviteCommands } from "./commands/invite";
import { registerKeysCommands } from "./commands/keys";
import { registerOccurrencesCommand } from "./commands/occurrences";
import { registerProfilesCommands } from "./commands/profiles";
import { registerSessionCommands } from "./commands/session";
import { registerTransactionsCommands } from "./commands/transactions";
import { registerTransferCommand } from "./commands/transfer";
import { registerWebhooksCommands } from "./commands/webhooks";
import { registerWhoamiCommand } from "./commands/whoami";
import type { CliEnv } from "./env";
import { CLI_VERSION } from "./version";

export function createProgram(env: CliEnv): Command {
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
  registerAdminCommands(program, env);
  registerSessionCommands(program, env);
  registerWhoamiCommand(program, env);
  registerProfilesCommands(program, env);
  registerImportCommands(program, env);
  registerBudgetsCommands(program, env);
  registerTransferCommand(program, env);
  registerFundCommands(program, env);
  registerTransactionsCommands(program, env);
  registerAccountsCommands(program, env);
  registerCategoriesCommands(program, env);
  registerKeysCommands(program, env);
  registerInviteCommands(program, env);
  registerOccurrencesCommand(program, env);
  registerActivityCommand(program, env);
  registerChangesCommand(program, env);
  registerWebhooksCommands(program, env);
  registerApiCommand(program, env);
  registerCompletionCommand(program);
  // Last: exit codes and help hints reach every command, whoever registered it.
  return applyConventions(program);
}
