import { terminalText } from "./terminal-text";

/** One column of a listing: which field, its heading, and how its values read. */
export interface Column<Row> {
  header: string;
  value: (row: Row) => unknown;
  /** Amounts: right-aligned, negative ones red when the terminal has colour. */
  money?: boolean;
}

/**
 * A cell as text: nothing is "-", everything else its plain string with control characters shown
 * escaped (terminal-text.ts): every table and record the CLI prints goes through here.
 */
export const cellText = (value: unknown): string =>
  value === null || value === undefined || value === "" ? "-" : terminalText(String(value));
