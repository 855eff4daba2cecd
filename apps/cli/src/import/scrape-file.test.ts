import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { ImportFileError } from "./import-file-error";
import { readScrapeFile } from "./scrape-file";

const problemsOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof ImportFileError) return (error.extra as { problems: unknown }).problems;
    throw error;
  }
  throw new Error("expected an ImportFileError");
};

const body = (transactions: string) =>
  `{\n"scraped_at": "2024-06-10T14:30:00Z",\n"ending_balance": "10.00",\n"transactions": [\n${transactions}\n]}`;
const row = (fields: string) =>
  `{"is_pending": false, "posted_date": "2024-06-08", "raw_description": "X", "amount": "-1.00"${fields}}`;

describe("readScrapeFile", () => {
  it("reads the body, keeps the bank's order, and keeps details and category beside each row", async () => {
    const text = await readFile(new URL("../../test/fixtures/scrape.json", import.meta.url), "utf8");
    const statement = readScrapeFile(text, "scrape.json");
    expect(statement.scrapedAt).toBe("2024-06-10T14:30:00Z");
    expect(statement.endingBalance).toBe("1148.35");
    expect(
      statement.rows.map((r) => [r.line, r.is_pending, r.posted_date, r.amount, r.raw_description]),
    ).toEqual([
      [5, true, "2024-06-10", "-23.99", "PENDING AMAZON MKTPLACE"],
      [11, false, "2024-06-08", "-76.20", "WHOLEFDS OAK 10234 06/07"],
      [26, false, "2024-06-05", "-48.46", "SHELL SERVICE STATION"],
      // A JSON number is read as its decimal text, as the server does.
      [38, false, "2024-06-03", "1297", "DIRECT DEP EMPLOYER INC"],
    ]);
    expect(statement.rows[1]).toMatchObject({
      transaction_type: "signature_purchase",
      running_balance: "1172.34",
      details: { merchant_name: "Whole Foods Market", merchant_category_code: "5411" },
      category: "Food & Drink : Groceries",
    });
    expect(statement.rows[3]).not.toHaveProperty("details");
  });

  it.each([
    [
      "a date that is not one",
      row("").replace("2024-06-08", "2024-06-31"),
      "transactions.0.posted_date: Must be an ISO 8601 date-time or a date, YYYY-MM-DD.",
    ],
    [
      "an amount with three decimals",
      row("").replace('"-1.00"', '"-1.005"'),
      "transactions.0.amount: Must be a decimal with up to 12 integer digits and 2 decimal places.",
    ],
    [
      "a blank description",
      row("").replace('"X"', '"  "'),
      "transactions.0.raw_description: This field may not be blank.",
    ],
    [
      "details that are not an object",
      row(', "details": [1]'),
      "transactions.0.details: Invalid input: expected record, received array",
    ],
  ])("names the line of %s", (_name, transaction, message) => {
    expect(problemsOf(() => readScrapeFile(body(`${row("")},\n${transaction}`), "s.json"))).toEqual([
      { line: 6, message: message.replace("transactions.0", "transactions.1") },
    ]);
  });

  it("names a JSON syntax error's line, and problems of the body's own fields", () => {
    expect(problemsOf(() => readScrapeFile('{\n"scraped_at": "x",\n}', "s.json"))).toEqual([
      { line: 3, message: "not valid JSON: Expected double-quoted property name" },
    ]);
    expect(problemsOf(() => readScrapeFile('{"scraped_at": "soon", "transactions": {}}', "s.json"))).toEqual([
      { line: null, message: "scraped_at: Must be an ISO 8601 date-time or a date, YYYY-MM-DD." },
      { line: null, message: "ending_balance: Invalid input: expected string, received undefined" },
      { line: null, message: "transactions: Must be an array of transactions." },
    ]);
  });
});
