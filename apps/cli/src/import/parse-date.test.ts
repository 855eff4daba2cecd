import { describe, expect, it } from "vitest";
import { checkDateFormat, parseDate } from "./parse-date";

describe("parseDate", () => {
  it.each([
    ["2024-03-01", "YYYY-MM-DD", "2024-03-01"],
    ["03/01/2024", "MM/DD/YYYY", "2024-03-01"],
    ["3/1/2024", "M/D/YYYY", "2024-03-01"],
    ["12/31/2024", "M/D/YYYY", "2024-12-31"],
    ["01.03.2024", "DD.MM.YYYY", "2024-03-01"],
    ["29.02.2024", "DD.MM.YYYY", "2024-02-29"],
    ["1 Mar 2024", "D MMM YYYY", "2024-03-01"],
    ["03/01/24", "MM/DD/YY", "2024-03-01"],
    [" 2024-03-01 23:59 ", "YYYY-MM-DD HH:mm", "2024-03-01"],
  ])("%j in %s is %s", (text, format, expected) => {
    expect(parseDate(text, format)).toBe(expected);
  });

  it.each([
    ["", "YYYY-MM-DD", /the date is empty/],
    ["2024-1-5", "YYYY-MM-DD", /'2024-1-5' is not a date in the format YYYY-MM-DD/],
    ["02/30/2024", "MM/DD/YYYY", /not a date/],
    ["29.02.2023", "DD.MM.YYYY", /not a date/],
    ["03/01/2024", "DD.MM.YYYY", /not a date/],
    ["13/01/2024", "MM/DD/YYYY", /not a date/],
  ])("refuses %j in %s", (text, format, message) => {
    expect(() => parseDate(text, format)).toThrow(message);
  });

  it.each(["MM/YYYY", "HH:mm", "DD.MM"])("refuses the format %j", (format) => {
    expect(() => checkDateFormat(format)).toThrow(/must contain a year, a month and a day/);
  });

  it("accepts a format with literal text in brackets", () => {
    expect(checkDateFormat("[Day] DD.MM.YYYY")).toBe("[Day] DD.MM.YYYY");
  });
});
