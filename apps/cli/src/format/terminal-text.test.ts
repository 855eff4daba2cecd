import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { cellText } from "./columns";
import { renderCsv } from "./csv";
import { renderTable } from "./table";
import { jsonText, shown, terminalText } from "./terminal-text";

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

/** A co-owner's account name that would retitle the terminal, clear it and hide the cursor. */
const HOSTILE = "\u001b]0;pwned\u0007Checking\u001b[2J\u001b[?25l\r\nX\tY\u007f\u009b";
const SHOWN = "\\x1b]0;pwned\\x07Checking\\x1b[2J\\x1b[?25l\\r\\nX\\tY\\x7f\\x9b";

describe("terminalText", () => {
  it("shows every control character as its escape, and leaves other text alone", () => {
    expect(terminalText(HOSTILE)).toBe(SHOWN);
    expect(terminalText("\u0000\u0001\u001f\u0085")).toBe("\\x00\\x01\\x1f\\x85");
    expect(terminalText("Café — «Ferien» 🏖 C:\\path")).toBe("Café — «Ferien» 🏖 C:\\path");
  });

  it("`shown` escapes the values of a sentence, not its own line breaks", () => {
    expect(shown`Deleted account '${HOSTILE}'.\n`).toBe(`Deleted account '${SHOWN}'.\n`);
    expect(shown`${3} rows, ${null}\n`).toBe("3 rows, null\n");
  });

  it("jsonText writes no raw control character, and parses back to the same value", () => {
    const value = { name: HOSTILE, list: ["\u0085", 1] };
    for (const indent of [undefined, 2]) {
      const text = jsonText(value, indent);
      expect(text).not.toMatch(RAW_CONTROL);
      expect(JSON.parse(text)).toEqual(value);
    }
  });
});

describe("tables, records and CSV", () => {
  const rows = [{ name: HOSTILE, amount: "-1.00" }];
  const columns = [
    { header: "Name", value: (row: (typeof rows)[number]) => row.name },
    { header: "Amount", value: (row: (typeof rows)[number]) => row.amount, money: true },
  ];

  it("escape what they print, whichever command prints them", () => {
    expect(cellText(HOSTILE)).toBe(SHOWN);
    const table = renderTable(rows, columns, false);
    expect(table).not.toMatch(RAW_CONTROL);
    expect(table.split("\n")[1]).toBe(`${SHOWN}   -1.00`);
    const csv = renderCsv(rows, columns);
    expect(csv).not.toMatch(RAW_CONTROL);
    expect(csv).toContain(SHOWN);
  });
});

describe("the CLI's own writes", () => {
  const root = join(import.meta.dirname, "..");
  const sources = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) return entry.name === "testing" ? [] : sources(path);
      return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
    });

  it("interpolate into a sentence only through `shown`, so no command prints a server's text raw", () => {
    // A write whose text is a template with values: `write(\`…${x}…\`)`, not `write(shown\`…\`)`.
    const raw = /\.write\(\s*(?:[^()`]*\?\s*)?`[^`]*\$\{[^}]*\}/g;
    const found = sources(root).flatMap((path) =>
      [...readFileSync(path, "utf8").matchAll(raw)].map((match) => `${relative(root, path)}: ${match[0]}`),
    );
    // The exceptions escape their value themselves: JSON (jsonText) and an error's lines (detailText).
    expect(found.filter((line) => !/\$\{(jsonText|detailText)\(/.test(line))).toEqual([]);
  });
});
