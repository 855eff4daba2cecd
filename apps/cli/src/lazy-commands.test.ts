import { describe, expect, it } from "vitest";
import { invokedCommandName } from "./lazy-commands";

describe("invokedCommandName: the top-level command commander runs for these words", () => {
  it.each([
    { args: [], runs: undefined },
    { args: ["--help"], runs: undefined },
    { args: ["--help", "keys"], runs: undefined }, // the program's help
    { args: ["-V", "keys"], runs: undefined }, // the version
    { args: ["--json", "keys"], runs: undefined }, // an unknown option of the program
    { args: ["help"], runs: undefined },
    { args: ["help", "--json", "keys"], runs: undefined }, // the program's help
    { args: ["keys"], runs: "keys" },
    { args: ["keys", "create", "--json", "--", "budgets"], runs: "keys" },
    { args: ["help", "keys"], runs: "keys" },
    { args: ["help", "--", "keys"], runs: "keys" },
    { args: ["--", "keys"], runs: "keys" },
    { args: ["kyes"], runs: "kyes" }, // found in no row: commander says unknown command
  ])("allot $args runs $runs", ({ args, runs }) => {
    expect(invokedCommandName(args)).toBe(runs);
  });
});
