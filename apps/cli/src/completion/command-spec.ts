import type { Command } from "commander";

interface OptionSpec {
  /** `--email`, and `-h` when there is a short flag. */
  long: string | undefined;
  short: string | undefined;
  description: string;
  /** Whether the next word is its value (`--email <email>`), which is then not a command. */
  takesValue: boolean;
}

export interface CommandSpec {
  /** The words after `allot`: `[]` for the program, `["admin", "create-user"]`. */
  path: string[];
  name: string;
  description: string;
  subcommands: CommandSpec[];
  options: OptionSpec[];
}

/**
 * What shell completion needs of the commander tree: the visible commands and options, as commander's
 * own help lists them, so a command registered anywhere completes without being named here.
 */
export function commandSpec(command: Command, path: string[] = []): CommandSpec {
  const help = command.createHelp();
  return {
    path,
    name: command.name(),
    description: firstLine(command.description()),
    subcommands: help.visibleCommands(command).map((child) => commandSpec(child, [...path, child.name()])),
    options: help.visibleOptions(command).map((option) => ({
      long: option.long,
      short: option.short,
      description: firstLine(option.description),
      takesValue: option.required || option.optional,
    })),
  };
}

/** Every command of the tree, the program first. */
export function flattenSpec(spec: CommandSpec): CommandSpec[] {
  return [spec, ...spec.subcommands.flatMap(flattenSpec)];
}

function firstLine(text: string): string {
  return (text.split("\n")[0] ?? "").trim();
}
