import { Command, Help } from "commander";
import { applyConventions } from "./cli-conventions";
import type { CliEnv } from "./env";

/**
 * A top-level command of `allot` whose module is imported only when it runs (decision 0067):
 * `allot --help` lists it from this row alone, and its module adds the rest (options, arguments,
 * subcommands, help texts, actions) to the command it is given, already named and described.
 */
export interface TopLevelCommand {
  name: string;
  /**
   * What `allot --help` prints after the name: `[options]` if the command has any, then its
   * arguments, as commander writes them from the module (program.test.ts holds the two equal).
   */
  usage: string;
  /** The one line `allot --help` shows, and the first of the command's own help. */
  description: string;
  load: () => Promise<(command: Command, env: CliEnv) => void>;
}

/** What each top-level command still has to load, until it has. */
const unloaded = new WeakMap<Command, () => Promise<void>>();

/**
 * Adds the commands to the program, their modules not loaded. The env is read once, when the first
 * module loads (it imports zod, which `--help` does without); an invalid one is reported as before,
 * by any command, before it parses.
 */
export function addTopLevelCommands(
  program: Command,
  commands: readonly TopLevelCommand[],
  readEnv: () => Promise<CliEnv>,
): void {
  let env: Promise<CliEnv> | undefined;
  const readEnvOnce = () => {
    env ??= readEnv();
    return env;
  };
  for (const row of commands) {
    const command = program.command(row.name).description(row.description);
    unloaded.set(command, async () => {
      const read = await readEnvOnce();
      (await row.load())(command, read);
      applyConventions(command);
    });
  }
  // After the commands were added (each took the program's help settings then): only the
  // program's own help lists them by their rows.
  const usages = new Map(commands.map((row) => [row.name, row.usage]));
  const commanderTerm = new Help();
  program.configureHelp({
    subcommandTerm: (command) => {
      const usage = usages.get(command.name());
      if (usage === undefined) return commanderTerm.subcommandTerm(command); // `help [command]`
      return usage === "" ? command.name() : `${command.name()} ${usage}`;
    },
  });
}

/**
 * The top-level command `args` (the words after `allot`) run, read as commander reads them: the
 * first operand, or the one after `help` (`allot help keys` prints the keys command's help). A bare
 * Command reads them: the program's one option of its own, -V, prints the version before any
 * command runs, and an unknown option before the first operand leaves none for both.
 */
export function invokedCommandName(args: readonly string[]): string | undefined {
  const [first, second] = new Command().parseOptions([...args]).operands;
  return first === "help" ? second : first;
}

/** Loads the module of the command `args` run, if they run one, so that it parses in full. */
export async function loadInvokedCommand(program: Command, args: readonly string[]): Promise<void> {
  const name = invokedCommandName(args);
  const command = program.commands.find((candidate) => candidate.name() === name);
  if (command) await loadCommand(command);
}

/** The program with every command's module loaded: for `allot completion`, and tests of the tree. */
export async function loadEveryCommand(program: Command): Promise<Command> {
  for (const command of program.commands) await loadCommand(command);
  return program;
}

async function loadCommand(command: Command): Promise<void> {
  const load = unloaded.get(command);
  unloaded.delete(command);
  await load?.();
}
