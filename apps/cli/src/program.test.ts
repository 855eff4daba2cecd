import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { commandPath, commandTree } from "./cli-conventions";
import { readEnv } from "./env";
import { loadEveryCommand } from "./lazy-commands";
import { createProgram } from "./program";

/** The help a command prints for --help, examples included (they come from an `afterHelp` hook). */
function helpOf(command: Command): string {
  let text = "";
  command.configureOutput({
    writeOut: (chunk) => {
      text += chunk;
    },
  });
  command.outputHelp();
  return text;
}

const testEnv = async () => readEnv({}, "/tmp");
const program = await loadEveryCommand(createProgram(testEnv));

describe("the allot command tree", () => {
  const commands = commandTree(program);

  it("has the commands of every file that registers some", () => {
    expect(commands.length).toBeGreaterThan(10);
  });

  // The table in program.ts names, describes and shows the usage of each command without its module.
  it("prints `allot --help` from the table as commander prints it from the loaded modules", async () => {
    // Commander's own help, which reads each command's options and arguments.
    const fromModules = helpOf((await loadEveryCommand(createProgram(testEnv))).configureHelp({}));
    expect(fromModules).toContain("  api [options] <method> <path>");
    expect(helpOf(createProgram(testEnv))).toBe(fromModules);
  });

  // A convention of every command, whoever adds it: `allot X --help` ends with examples.
  it.each(commands.map((command) => [commandPath(command), command] as const))(
    "%s --help shows examples",
    (_path, command) => {
      const [, examples] = helpOf(command).split("\nExamples:\n");
      expect(examples, "add them with addExamples(command, [...]) from cli-conventions.ts").toMatch(
        /\ballot \S/,
      );
    },
  );
});
