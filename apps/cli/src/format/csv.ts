import { stringify } from "csv-stringify/sync";
import type { Column } from "./columns";
import { terminalText } from "./terminal-text";

/**
 * Rows as RFC 4180 CSV with a header line, values as the table shows them (empty for none), control
 * characters shown escaped as in a table: CSV lands on terminals too (`--json` keeps exact texts).
 */
export function renderCsv<Row>(rows: readonly Row[], columns: readonly Column<Row>[]): string {
  return stringify([
    columns.map((column) => column.header),
    ...rows.map((row) =>
      columns.map((column) => {
        const value = column.value(row);
        return value === null || value === undefined ? "" : terminalText(String(value));
      }),
    ),
  ]);
}
