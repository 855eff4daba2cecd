import type { Command } from "commander";
import { addApiOptions } from "../api-session";
import { addExamples } from "../cli-conventions";
import { addOutputOptions } from "../format/emit";
import { reportError } from "../output";

/** A subcommand on one transaction: its ID argument, the API options, the output formats, examples. */
export function onOne(
  group: Command,
  name: string,
  description: string,
  examples: readonly string[],
  { printsResource = true } = {},
): Command {
  const command = group
    .command(name)
    .description(description)
    .argument("<id>", "the transaction's id (the ID column of `allot transactions list`)");
  if (printsResource) addOutputOptions(command);
  else command.option("--json", "print JSON for scripts");
  return addExamples(addApiOptions(command), examples);
}

/** Runs an action, reporting its error the one way: API errors exit 1, usage errors 2. */
export async function act(options: { json?: boolean }, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    reportError(error, Boolean(options.json));
  }
}
