import { displayWidth } from "./display-width";

/**
 * A paragraph as lines of at most `width` terminal columns, broken between words: the first line
 * after `first`, the others after `rest` (a bullet and its hanging indent). A word wider than a
 * line has it alone.
 */
export function wrapText(text: string, width: number, indent: { first: string; rest: string }): string[] {
  const lines: string[] = [];
  let line = indent.first;
  let empty = true;
  for (const word of text.split(/\s+/).filter((part) => part !== "")) {
    if (!empty && displayWidth(line) + 1 + displayWidth(word) > width) {
      lines.push(line);
      line = indent.rest;
      empty = true;
    }
    line += empty ? word : ` ${word}`;
    empty = false;
  }
  lines.push(line);
  return lines;
}
