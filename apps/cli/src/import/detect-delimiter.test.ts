import { describe, expect, it } from "vitest";
import { detectDelimiter } from "./detect-delimiter";

describe("detectDelimiter", () => {
  it.each([
    ["Date,Description,Amount", ","],
    ["Buchungstag;Verwendungszweck;Betrag", ";"],
    ["Date\tPayee\tAmount", "\t"],
    ["Date|Payee|Amount", "|"],
    ['"Date;Time",Description,Amount', ","],
    ['Date;"Payee, Inc";Amount', ";"],
    ["Date", ","],
    ["", ","],
  ])("%j → %j", (header, expected) => {
    expect(detectDelimiter(header)).toBe(expected);
  });
});
