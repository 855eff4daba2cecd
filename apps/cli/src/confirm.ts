import { createInterface } from "node:readline";
import { terminalText } from "./format/terminal-text";
import { UsageError } from "./output";

/**
 * A destructive command goes ahead with `--yes`, or when a person at a terminal answers yes.
 * Without a terminal (a script, a pipe) and without `--yes` it refuses (exit 2), so nothing is
 * deleted by a command that could not ask.
 */
export async function confirmDestructive(question: string, yes: boolean | undefined): Promise<void> {
  await confirmOrRefuse(question, yes, "this cannot be undone");
}

/**
 * The same rule for any command that must not run unasked (money moved ahead of time): `--yes`, or
 * a person at a terminal answering yes; a script without `--yes` is refused (exit 2), `why` said.
 */
export async function confirmOrRefuse(
  question: string,
  yes: boolean | undefined,
  why: string,
): Promise<void> {
  if (yes) return;
  if (!process.stdin.isTTY || !process.stderr.isTTY)
    throw new UsageError(
      `${question.replace(/\?$/, "")}: ${why}, so pass --yes to confirm.`,
      "confirmation_required",
    );
  const answer = await ask(`${question} [y/N] `);
  if (!/^y(es)?$/i.test(answer.trim()))
    throw new UsageError("Cancelled: nothing was changed (pass --yes to skip this question).", "cancelled");
}

function ask(prompt: string): Promise<string> {
  const lines = createInterface({ input: process.stdin, output: process.stderr });
  return new Promise((resolve) => {
    // The question names what the server calls it: shown escaped, like everything printed.
    lines.question(terminalText(prompt), (answer) => {
      lines.close();
      resolve(answer);
    });
    // Ctrl-D: no answer, which is no.
    lines.once("close", () => resolve(""));
  });
}
