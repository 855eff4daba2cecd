import { Argument, type Command } from "commander";
import { addExamples } from "../cli-conventions";
import { bashCompletion } from "../completion/bash-completion";
import { commandSpec } from "../completion/command-spec";
import { fishCompletion } from "../completion/fish-completion";
import { zshCompletion } from "../completion/zsh-completion";
import { loadEveryCommand } from "../lazy-commands";

const SHELLS = { bash: bashCompletion, zsh: zshCompletion, fish: fishCompletion } as const;

/**
 * `allot completion bash|zsh|fish`: a completion script made from the command tree (no network),
 * every command's module loaded for it.
 */
export function registerCompletionCommand(completion: Command): void {
  completion
    .addArgument(new Argument("<shell>", "the shell").choices(Object.keys(SHELLS)))
    .action(async (shell: keyof typeof SHELLS, _options: unknown, command: Command) => {
      let root = command;
      while (root.parent) root = root.parent;
      process.stdout.write(SHELLS[shell](commandSpec(await loadEveryCommand(root))));
    });
  addExamples(completion, [
    "source <(allot completion bash)        # in ~/.bashrc",
    "source <(allot completion zsh)         # in ~/.zshrc, after compinit",
    "allot completion fish > ~/.config/fish/completions/allot.fish",
  ]);
}
