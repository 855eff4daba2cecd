import { describe, expect, it } from "vitest";
import type { StatementRow } from "./statement";
import { newestFirst } from "./statement-order";

const rows = (...dates: string[]): StatementRow[] =>
  dates.map((posted_date, index) => ({
    line: index + 1,
    is_pending: false,
    posted_date,
    amount: "1.00",
    raw_description: "x",
  }));
const lines = (list: StatementRow[]) => list.map((r) => r.line);

describe("newestFirst", () => {
  it.each([
    [
      "oldest first: reversed whole, one day's rows too",
      ["2024-01-01", "2024-01-02", "2024-01-02", "2024-01-03"],
      [4, 3, 2, 1],
    ],
    ["newest first: kept", ["2024-01-03", "2024-01-02", "2024-01-02", "2024-01-01"], [1, 2, 3, 4]],
    ["one date throughout: read as oldest first", ["2024-01-01", "2024-01-01", "2024-01-01"], [3, 2, 1]],
    [
      "a row out of place goes where its date says",
      ["2024-01-01", "2024-01-05", "2024-01-02", "2024-01-04"],
      [2, 4, 3, 1],
    ],
    ["date-times sort by their day", ["2024-01-02T23:00:00Z", "2024-01-03T01:00:00Z"], [2, 1]],
    ["nothing", [], []],
  ])("%s", (_name, dates, expected) => {
    expect(lines(newestFirst(rows(...dates)))).toEqual(expected);
  });
});
