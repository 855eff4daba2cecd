import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { readEnv } from "../env";
import { loadEveryCommand } from "../lazy-commands";
import { createProgram } from "../program";
import { bashCompletion } from "./bash-completion";
import { commandSpec } from "./command-spec";

const run = promisify(execFile);
const script = bashCompletion(
  commandSpec(await loadEveryCommand(createProgram(async () => readEnv({}, "/tmp")))),
);

/** What bash offers after `allot <words>` and a Tab, with the generated script loaded. */
async function complete(...words: string[]): Promise<string[]> {
  const line = ["allot", ...words];
  const { stdout } = await run("bash", [
    "--norc",
    "-c",
    `${script}\nCOMP_WORDS=(${line.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${line.length - 1}\n_allot_completion\nprintf '%s\\n' "\${COMPREPLY[@]}"`,
  ]);
  return stdout.split("\n").filter(Boolean);
}

describe("bash completion", () => {
  it("registers a function for allot", () => {
    expect(script).toContain("complete -o default -F _allot_completion allot");
  });

  it("offers the top-level commands", async () => {
    expect(await complete("")).toEqual(
      expect.arrayContaining(["admin", "login", "logout", "whoami", "profiles", "import", "completion"]),
    );
    expect(await complete("pro")).toEqual(["profiles"]);
  });

  it("offers a subcommand's subcommands and options, wherever options come", async () => {
    expect(await complete("profiles", "")).toEqual(expect.arrayContaining(["list", "use", "remove"]));
    expect(await complete("import", "csv", "--")).toEqual(
      expect.arrayContaining([
        "--account",
        "--map",
        "--mapping",
        "--save-mapping",
        "--profile",
        "--url",
        "--json",
      ]),
    );
    expect(await complete("login", "--email", "me@example.com", "--cr")).toEqual(["--create-api-key"]);
  });

  it("leaves an option's value to bash's file completion", async () => {
    expect(await complete("import", "csv", "--account", "")).toEqual([]);
  });
});
