import { red } from "./colour";
import { type Column, cellText } from "./columns";
import { displayWidth as width } from "./display-width";

// A negative amount, not the "-" that stands for no value.
const isNegative = (text: string | undefined) => /^-\d/.test(text ?? "");

/**
 * Rows as aligned columns under an upper-case heading, two spaces apart, like `gh` lists: amounts
 * right-aligned and, with colour, negative ones red. No trailing spaces.
 */
export function renderTable<Row>(
  rows: readonly Row[],
  columns: readonly Column<Row>[],
  colour: boolean,
): string {
  const cells = rows.map((row) => columns.map((column) => cellText(column.value(row))));
  const widths = columns.map((column, i) =>
    Math.max(width(column.header), ...cells.map((line) => width(line[i] ?? ""))),
  );
  const line = (texts: string[], paint: (text: string, i: number) => string) =>
    texts
      .map((text, i) => {
        const pad = " ".repeat(Math.max(0, (widths[i] ?? 0) - width(text)));
        return paint(columns[i]?.money ? pad + text : text + pad, i);
      })
      .join("  ")
      .trimEnd();
  const header = line(
    columns.map((column) => column.header.toUpperCase()),
    (text) => text,
  );
  const body = cells.map((texts) =>
    line(texts, (text, i) => (colour && columns[i]?.money && isNegative(texts[i]) ? red(text) : text)),
  );
  return `${[header, ...body].join("\n")}\n`;
}
