import { describe, expect, it } from "vitest";
import type { Column } from "./columns";
import { renderCsv } from "./csv";
import { renderTable } from "./table";

interface Row {
  name: string;
  balance: string;
  note?: string | null;
}
const columns: Column<Row>[] = [
  { header: "Name", value: (row) => row.name },
  { header: "Balance", value: (row) => row.balance, money: true },
  { header: "Note", value: (row) => row.note },
];
const rows: Row[] = [
  { name: "Groceries", balance: "120.50", note: "weekly" },
  { name: "Rent", balance: "-1200.00", note: null },
  { name: "Café", balance: "3.00", note: 'says "hi", twice' },
];

describe("renderTable", () => {
  it("aligns columns, amounts to the right, and leaves no trailing spaces", () => {
    expect(renderTable(rows, columns, false)).toBe(
      [
        "NAME        BALANCE  NOTE",
        "Groceries    120.50  weekly",
        "Rent       -1200.00  -",
        'Café           3.00  says "hi", twice',
        "",
      ].join("\n"),
    );
  });

  it("paints negative amounts red only when asked to", () => {
    const painted = renderTable(rows, columns, true);
    expect(painted).toContain("\u001b[31m-1200.00\u001b[39m");
    expect(painted).not.toContain("\u001b[31m 120.50");
  });

  it("leaves the '-' of an amount that is missing unpainted", () => {
    const target: Column<Row> = { header: "Target", value: (row) => row.note ?? null, money: true };
    const painted = renderTable([{ name: "Rent", balance: "-5.00", note: null }], [...columns, target], true);
    expect(painted).toBe(
      ["NAME  BALANCE  NOTE  TARGET", "Rent  \u001b[31m  -5.00\u001b[39m  -          -", ""].join("\n"),
    );
  });

  it("measures CJK and emoji as the two columns a terminal gives them", () => {
    const wide: Row[] = [
      { name: "寿司 🍣", balance: "-12.00", note: "東京" },
      { name: "Café", balance: "3.00", note: "👨‍👩‍👧 family" },
    ];
    expect(renderTable(wide, columns, false)).toBe(
      ["NAME     BALANCE  NOTE", "寿司 🍣   -12.00  東京", "Café        3.00  👨‍👩‍👧 family", ""].join("\n"),
    );
  });
});

describe("renderCsv", () => {
  it("quotes what needs quoting and leaves missing values empty", () => {
    expect(renderCsv(rows, columns)).toBe(
      'Name,Balance,Note\nGroceries,120.50,weekly\nRent,-1200.00,\nCafé,3.00,"says ""hi"", twice"\n',
    );
  });
});
