import { Command } from "commander";
import { registerAdminCommands } from "./commands/admin";
import { registerBudgetsCommands } from "./commands/budgets";
import { registerFundCommands } from "./commands/fund";
import { registerImportCommands } from "./commands/import";
import { registerSessionCommands } from "./commands/session";
import { registerTransferCommand } from "./commands/transfer";
import { registerWhoamiCommand } from "./commands/whoami";
import type { CliEnv } from "./env";

export function createProgram(env: CliEnv): Command {
  const program = new Command()
    .name("allot")
    .description(
      "Allot from the command line: `admin` commands work on the database, the others talk to the API",
    )
    .showHelpAfterError();
  registerAdminCommands(program, env);
  registerSessionCommands(program, env);
  registerWhoamiCommand(program, env);
  registerImportCommands(program, env);
  registerBudgetsCommands(program, env);
  registerTransferCommand(program, env);
  registerFundCommands(program, env);
  return program;
}
