import { describe, expect, it } from "vitest";
import { dayNumberOf, transactionDateOf } from "./scrape-transaction-date";

describe("transactionDateOf", () => {
  it.each([
    ["same day", "COFFEE 03/15 SEATTLE", "2024-03-15", "2024-03-15"],
    ["7 days before is in", "COFFEE 03/08 SEATTLE", "2024-03-15", "2024-03-08"],
    ["8 days before is out", "COFFEE 03/07 SEATTLE", "2024-03-15", "2024-03-15"],
    ["a day after the posted date is out", "COFFEE 03/16", "2024-03-15", "2024-03-15"],
    ["window crosses a month end", "SHOP 02/27", "2024-03-02", "2024-02-27"],
    ["December purchase posted in January", "SHOP 12/30", "2025-01-02", "2024-12-30"],
    ["December date too long before January post", "SHOP 12/20", "2025-01-02", "2025-01-02"],
    ["02/30 is not a date", "SHOP 02/30", "2024-03-02", "2024-03-02"],
    ["02/29 in a leap year", "SHOP 02/29", "2024-03-02", "2024-02-29"],
    ["02/29 in a common year", "SHOP 02/29", "2025-03-02", "2025-03-02"],
    ["13/01 is not a date", "SHOP 13/01", "2024-01-14", "2024-01-14"],
    ["00/10 is not a date", "SHOP 00/10", "2024-01-14", "2024-01-14"],
    ["digits not a date", "ID 1234/5678", "2024-12-30", "2024-12-30"],
    ["digits glued around a slash", "ID 1212/2912", "2024-12-30", "2024-12-30"],
    ["reference number", "REF 12/345", "2024-12-14", "2024-12-14"],
    ["a full date is not a bare MM/DD", "SHOP 12/10/2024", "2024-12-14", "2024-12-14"],
    ["single-digit month is not MM/DD", "SHOP 3/10", "2024-03-14", "2024-03-14"],
    ["no date at all", "PAYROLL DEPOSIT", "2024-03-15", "2024-03-15"],
    ["first qualifying date wins", "SHOP 03/20 REF 03/10 AT 03/12", "2024-03-15", "2024-03-10"],
    ["first of two qualifying dates", "SHOP 03/12 AT 03/10", "2024-03-15", "2024-03-12"],
    ["date at the very start", "03/14 SHOP", "2024-03-15", "2024-03-14"],
  ])("%s", (_name, description, posted, expected) => {
    expect(transactionDateOf(description, posted)).toBe(expected);
  });

  it("rejects a posted date that is not YYYY-MM-DD", () => {
    expect(() => transactionDateOf("SHOP", "2024-02-30")).toThrow(TypeError);
    expect(() => transactionDateOf("SHOP", "2024-03-15T10:00:00Z")).toThrow(TypeError);
  });
});

describe("dayNumberOf", () => {
  it.each([
    ["1970-01-01", 0],
    ["1970-01-02", 1],
    ["2024-03-01", 19783],
  ])("%s", (date, expected) => {
    expect(dayNumberOf(date)).toBe(expected);
  });
});
