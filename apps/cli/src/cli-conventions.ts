import type { Command, CommanderError } from "commander";

/**
 * What every `allot` command follows, in one place:
 * - exit codes: 0 ok, 1 the API (or the database) refused or failed, 2 usage — commander's own
 *   errors, bad arguments, missing or invalid configuration (a UsageError);
 * - messages say what to do next (each UsageError's text ends with the command to run);
 * - `--help` ends with an "Examples:" section (`addExamples`), checked over the whole tree by
 *   program.test.ts.
 */
const EXIT_OK = 0;
export const EXIT_API_ERROR = 1;
export const EXIT_USAGE = 2;

/** `addHelpText("after", …)` in the one shape the help test looks for. */
export function addExamples(command: Command, examples: readonly string[]): Command {
  return command.addHelpText("after", `\nExamples:\n${examples.map((line) => `  $ ${line}`).join("\n")}\n`);
}

/**
 * Applied to the program, and to each top-level command once its module has registered the rest
 * (lazy-commands.ts), so it reaches commands registered by any file: commander errors throw
 * (main.ts turns them into exit 2) instead of exiting 1, and point at the command's help.
 */
export function applyConventions(program: Command): Command {
  for (const command of commandTree(program)) {
    command.exitOverride();
    command.showHelpAfterError(`(run \`${commandPath(command)} --help\` for its options and examples)`);
  }
  return program;
}

/** The exit status for what a parse threw: help and version exit 0, any other commander error 2. */
export function exitCodeOfCommanderError(error: CommanderError): number {
  return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
}

/** The program and every command below it, parents first. */
export function commandTree(root: Command): Command[] {
  return [root, ...root.commands.flatMap((child) => commandTree(child))];
}

/** `allot admin create-user`: the words that run the command. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}
