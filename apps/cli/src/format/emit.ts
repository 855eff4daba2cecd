import type { Command } from "commander";
import { printJson, UsageError } from "../output";
import { stdoutHasColour } from "./colour";
import { type Column, cellText } from "./columns";
import { renderCsv } from "./csv";
import { renderTable } from "./table";
import { shown } from "./terminal-text";

export interface OutputOptions {
  json?: boolean;
  csv?: boolean;
}

/** `--json` and `--csv` on a command that prints resources (a table for people otherwise). */
export const addOutputOptions = (command: Command): Command =>
  command
    .option("--json", "print JSON for scripts")
    .option("--csv", "print CSV for spreadsheets and scripts");

function format(options: OutputOptions): "json" | "csv" | "table" {
  if (options.json && options.csv) throw new UsageError("Choose one of --json and --csv.", "usage_error");
  return options.json ? "json" : options.csv ? "csv" : "table";
}

/**
 * A list: the API's objects as JSON (unchanged, so scripts see every field), or the chosen columns
 * as CSV or as a table. An empty table says so on stderr, so stdout stays clean for pipes.
 */
export function emitList<Row>(
  rows: readonly Row[],
  columns: readonly Column<Row>[],
  options: OutputOptions,
  empty = "Nothing to list.",
): void {
  const chosen = format(options);
  if (chosen === "json") {
    printJson(rows);
    return;
  }
  if (chosen === "csv") {
    process.stdout.write(renderCsv(rows, columns));
    return;
  }
  if (rows.length === 0) {
    process.stderr.write(shown`${empty}\n`);
    return;
  }
  process.stdout.write(renderTable(rows, columns, stdoutHasColour()));
}

/** One object: JSON, a one-row CSV, or `field  value` lines with amounts aligned right. */
export function emitRecord<Row>(row: Row, fields: readonly Column<Row>[], options: OutputOptions): void {
  const chosen = format(options);
  if (chosen === "json") {
    printJson(row);
    return;
  }
  if (chosen === "csv") {
    process.stdout.write(renderCsv([row], fields));
    return;
  }
  const width = Math.max(...fields.map((field) => field.header.length));
  for (const field of fields)
    process.stdout.write(shown`${field.header.padEnd(width)}  ${cellText(field.value(row))}\n`);
}
