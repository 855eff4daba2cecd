import { describe, expect, it } from "vitest";
import { readEnv } from "../env";
import { loadEveryCommand } from "../lazy-commands";
import { createProgram } from "../program";
import { type CommandSpec, commandSpec } from "./command-spec";
import { fishCompletion } from "./fish-completion";
import { zshCompletion } from "./zsh-completion";

const spec: CommandSpec = commandSpec(await loadEveryCommand(createProgram(async () => readEnv({}, "/tmp"))));

// zsh and fish are not installed where the tests run: these check what the scripts declare.
describe("zsh and fish completion", () => {
  it("zsh: an autoloadable function listing commands and options with descriptions", () => {
    const script = zshCompletion(spec);
    expect(script.startsWith("#compdef allot\n")).toBe(true);
    expect(script).toContain("'login:Log in and store the credentials");
    expect(script).toContain("('import csv') items=(");
    expect(script).toContain("'--save-mapping:save this mapping under a name");
    expect(script).toContain("compdef _allot allot");
  });

  it("fish: one complete line per command and option, conditioned on the command typed", () => {
    const script = fishCompletion(spec);
    expect(script).toContain("complete -c allot -f -n '__allot_at \\'\\'' -a 'whoami' -d 'Show who you are");
    expect(script).toContain("complete -c allot -f -n '__allot_at \\'profiles\\'' -a 'use'");
    expect(script).toContain("complete -c allot -n '__allot_at \\'login\\'' -l create-api-key -r -d");
    expect(script).toContain("-l help -s h -d 'display help for command'");
  });

  it("quotes descriptions safely", () => {
    const quoted: CommandSpec = {
      path: [],
      name: "allot",
      description: "",
      subcommands: [{ path: ["x"], name: "x", description: "it's a \\ test", subcommands: [], options: [] }],
      options: [],
    };
    expect(fishCompletion(quoted)).toContain("-a 'x' -d 'it\\'s a \\\\ test'");
    expect(zshCompletion(quoted)).toContain("'x:it'\\''s a \\ test'");
  });
});
