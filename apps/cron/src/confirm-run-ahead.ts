import { createInterface } from "node:readline";
import type { RunAhead } from "@allot/scheduler/run-ahead";

/** Why a run ahead did not go on: the message for stderr (exit 2). */
export class RunAheadRefused extends Error {}

const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

const range = (low: string, high: string) => (low === high ? low : `${low} to ${high}`);

/**
 * What `--as-of DAY` after the accounts' today is about to do (decision 0057), one line for stderr:
 * how many days ahead, of which accounts' today, and how many budgets have a schedule it runs.
 */
export function runAheadWarning(job: "fund" | "recur", asOf: string, ahead: RunAhead): string {
  const days =
    ahead.fewestDays === ahead.mostDays
      ? plural(ahead.mostDays, "day")
      : `${ahead.fewestDays.toLocaleString("en")} to ${plural(ahead.mostDays, "day")}`;
  const schedule = job === "recur" ? "recurrence schedule" : "funding schedule";
  const what = job === "recur" ? "every recurrence" : "every funding";
  return `warning: --as-of ${asOf} is ${days} after today (${range(ahead.earliestToday, ahead.latestToday)}) for ${plural(ahead.accounts, "auto-funding account")}, with ${plural(ahead.budgets, `budget with a ${schedule}`, `budgets with a ${schedule}`)}: this runs ${what} of theirs due through ${asOf} now, as if those days had come.`;
}

/**
 * Goes on with `--yes`, or when a person at a terminal answers yes; a script without `--yes` is
 * refused, as the CLI's `allot fund run --as-of` is (decision 0055): money moves ahead of time.
 */
export async function confirmRunAhead(
  job: "fund" | "recur",
  asOf: string,
  ahead: RunAhead,
  yes: boolean | undefined,
): Promise<void> {
  if (yes) return;
  const question = `Run ${job} for ${plural(ahead.accounts, "account")} ${plural(ahead.mostDays, "day")} ahead, through ${asOf}`;
  if (!process.stdin.isTTY || !process.stderr.isTTY)
    throw new RunAheadRefused(`${question}: money moves ahead of time, so pass --yes to confirm.`);
  const answer = await ask(`${question}? [y/N] `);
  if (!/^y(es)?$/i.test(answer.trim()))
    throw new RunAheadRefused("Cancelled: nothing was changed (pass --yes to skip this question).");
}

function ask(prompt: string): Promise<string> {
  const lines = createInterface({ input: process.stdin, output: process.stderr });
  return new Promise((resolve) => {
    lines.question(prompt, (answer) => {
      lines.close();
      resolve(answer);
    });
    // Ctrl-D: no answer, which is no.
    lines.once("close", () => resolve(""));
  });
}
