import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { parseColumnMap } from "./column-map";
import { type CsvOptions, readCsvStatement } from "./csv-statement";
import { ImportFileError } from "./import-file-error";

const fixture = (name: string) => readFile(new URL(`../../test/fixtures/${name}`, import.meta.url), "utf8");

const options = (map: string, more: Partial<CsvOptions> = {}): CsvOptions => ({
  map: parseColumnMap(map),
  dateFormat: "YYYY-MM-DD",
  decimal: ".",
  skipLines: 0,
  ...more,
});
const BASIC = "date=Date,amount=Amount,description=Description";

const problemsOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof ImportFileError) return (error.extra as { problems: unknown }).problems;
    throw error;
  }
  throw new Error("expected an ImportFileError");
};

const summary = (text: string, opts: CsvOptions) =>
  readCsvStatement(text, "f.csv", opts).rows.map((r) => [r.line, r.posted_date, r.amount, r.raw_description]);

describe("readCsvStatement", () => {
  it("reads a US export: MM/DD/YYYY, $ and (negative) amounts, quoted commas, a balance column", async () => {
    const statement = readCsvStatement(
      await fixture("checking.csv"),
      "checking.csv",
      options(`${BASIC},balance=Balance`, { dateFormat: "MM/DD/YYYY" }),
    );
    expect(statement.endingBalance).toBe("1862.57");
    expect(statement.rows).toEqual([
      {
        line: 2,
        is_pending: false,
        posted_date: "2024-03-14",
        amount: "-62.18",
        raw_description: "TRADER JOES #552, SAN FRANCISCO",
        running_balance: "1862.57",
      },
      {
        line: 3,
        is_pending: false,
        posted_date: "2024-03-12",
        amount: "500.00",
        raw_description: "ONLINE TRANSFER FROM SAVINGS",
        running_balance: "1924.75",
      },
      {
        line: 4,
        is_pending: false,
        posted_date: "2024-03-12",
        amount: "-15.49",
        raw_description: "NETFLIX.COM 866-579-7172",
        running_balance: "1424.75",
      },
      {
        line: 5,
        is_pending: false,
        posted_date: "2024-03-04",
        amount: "-35.00",
        raw_description: "CITY OF OAKLAND PARKING",
        running_balance: "1440.24",
      },
      {
        line: 6,
        is_pending: false,
        posted_date: "2024-03-01",
        amount: "1475.24",
        raw_description: "PAYROLL ACME CORP",
        running_balance: "1475.24",
      },
    ]);
  });

  it("reads a European export: preamble lines, ';', DD.MM.YYYY, decimal comma, debit/credit, joined description", async () => {
    const statement = readCsvStatement(
      await fixture("girokonto.csv"),
      "girokonto.csv",
      options("date=Buchungstag,description=Empfänger+Verwendungszweck,debit=Soll,credit=Haben", {
        dateFormat: "DD.MM.YYYY",
        decimal: ",",
        skipLines: 2,
      }),
    );
    expect(statement.endingBalance).toBeNull();
    expect(
      statement.rows.map((r) => [r.line, r.posted_date, r.amount, r.raw_description, r.running_balance]),
    ).toEqual([
      [8, "2024-02-29", "-4.90", "Kontoführung", undefined],
      [7, "2024-02-15", "-47.10", "REWE Einkauf; Filiale 12", undefined],
      [5, "2024-02-05", "3210.55", "Muster GmbH Gehalt", undefined],
      [4, "2024-02-01", "-850.00", "Hausverwaltung Schmidt Miete Februar", undefined],
    ]);
  });

  it.each<[string, string, CsvOptions, unknown[][]]>([
    [
      "header names match case-insensitively, blank rows are skipped, a BOM is dropped",
      "\uFEFFdate,AMOUNT,description\n2024-01-01,1,a\n,,\n\n2024-01-02,2,b\n",
      options(BASIC),
      [
        [5, "2024-01-02", "2.00", "b"],
        [2, "2024-01-01", "1.00", "a"],
      ],
    ],
    [
      "a quoted field over two lines: the record's first line is named",
      'Date,Amount,Description\n2024-01-01,1,"two\nlines"\n2024-01-02,2,c\n',
      options(BASIC),
      [
        [4, "2024-01-02", "2.00", "c"],
        [2, "2024-01-01", "1.00", "two lines"],
      ],
    ],
    [
      "debits printed negative are still money out; a zero debit is zero",
      "Date,Desc,Out,In\n2024-01-01,a,-5.00,\n2024-01-02,b,0,\n",
      options("date=Date,description=Desc,debit=Out,credit=In"),
      [
        [3, "2024-01-02", "0.00", "b"],
        [2, "2024-01-01", "-5.00", "a"],
      ],
    ],
    [
      "an explicit tab delimiter",
      "Date\tAmount\tDescription\n2024-01-01\t-1\ta, b\n",
      options(BASIC, { delimiter: "\t" }),
      [[2, "2024-01-01", "-1.00", "a, b"]],
    ],
  ])("%s", (_name, text, opts, expected) => {
    expect(summary(text, opts)).toEqual(expected);
  });

  it("a balance column with an empty cell gives that row a null running balance", () => {
    const statement = readCsvStatement(
      "Date,Amount,Description,Balance\n2024-01-01,1,a,1.00\n2024-01-02,2,b,\n",
      "f.csv",
      options(`${BASIC},balance=Balance`),
    );
    expect(statement.rows.map((r) => r.running_balance)).toEqual([null, "1.00"]);
    expect(statement.endingBalance).toBeNull();
  });

  it("names every bad line and what is wrong with it", () => {
    const text = [
      "Date,Amount,Description,Balance",
      "2024-01-01,1.00,ok,1.00",
      "01/02/2024,1.00,bad date,2.00",
      "2024-01-03,abc,bad amount,3.00",
      "2024-01-04,1.00,,4.00",
      "2024-01-05,1.00,bad balance,x",
      "2024-01-06,1.001,two problems,",
    ].join("\n");
    expect(problemsOf(() => readCsvStatement(text, "f.csv", options(`${BASIC},balance=Balance`)))).toEqual([
      { line: 3, message: "'01/02/2024' is not a date in the format YYYY-MM-DD" },
      { line: 4, message: "'abc' is not an amount" },
      { line: 5, message: "the description is empty" },
      { line: 6, message: "'x' is not an amount" },
      { line: 7, message: "'1.001' has more than 2 decimal places" },
    ]);
  });

  it("refuses debit and credit both given, or neither", () => {
    const text = "Date,D,Out,In\n2024-01-01,a,1,2\n2024-01-02,b,,\n";
    expect(
      problemsOf(() =>
        readCsvStatement(text, "f.csv", options("date=Date,description=D,debit=Out,credit=In")),
      ),
    ).toEqual([
      { line: 2, message: "both debit '1' and credit '2' are given" },
      { line: 3, message: "neither debit nor credit is given" },
    ]);
  });

  it("names a missing column with the header it found", () => {
    expect(problemsOf(() => readCsvStatement("Date,Betrag,Text\n", "f.csv", options(BASIC)))).toEqual([
      { line: 1, message: "no column 'Description' (the header has: Date, Betrag, Text)" },
      { line: 1, message: "no column 'Amount' (the header has: Date, Betrag, Text)" },
    ]);
  });

  it("refuses an empty file and broken quoting, naming the line", () => {
    expect(problemsOf(() => readCsvStatement("", "f.csv", options(BASIC)))).toEqual([
      { line: null, message: "the file is empty" },
    ]);
    expect(
      problemsOf(() =>
        readCsvStatement('Date,Amount,Description\n2024-01-01,1,"open\n', "f.csv", options(BASIC)),
      ),
    ).toEqual([{ line: 2, message: expect.stringMatching(/Quote Not Closed/) }]);
  });
});
