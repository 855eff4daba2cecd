import { Argument, type Command } from "commander";
import { addExamples } from "../cli-conventions";
import { bashCompletion } from "../completion/bash-completion";
import { commandSpec } from "../completion/command-spec";
import { fishCompletion } from "../completion/fish-completion";
import { zshCompletion } from "../completion/zsh-completion";

const SHELLS = { bash: bashCompletion, zsh: zshCompletion, fish: fishCompletion } as const;

/** `allot completion bash|zsh|fish`: a completion script made from the command tree (no network). */
export function registerCompletionCommand(program: Command): void {
  const completion = program
    .command("completion")
    .description("Print a shell completion script for allot's commands and options")
    .addArgument(new Argument("<shell>", "the shell").choices(Object.keys(SHELLS)))
    .action((shell: keyof typeof SHELLS, _options: unknown, command: Command) => {
      let root = command;
      while (root.parent) root = root.parent;
      process.stdout.write(SHELLS[shell](commandSpec(root)));
    });
  addExamples(completion, [
    "source <(allot completion bash)        # in ~/.bashrc",
    "source <(allot completion zsh)         # in ~/.zshrc, after compinit",
    "allot completion fish > ~/.config/fish/completions/allot.fish",
  ]);
}
