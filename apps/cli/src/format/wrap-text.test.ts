import { describe, expect, it } from "vitest";
import { wrapText } from "./wrap-text";

describe("wrapText", () => {
  it("breaks between words within the width, with a hanging indent", () => {
    const text =
      "Starts from the balances of 2026-12-07 and assumes nothing else changes through 2027-03-07.";
    const lines = wrapText(text, 40, { first: "  - ", rest: "    " });
    expect(lines).toEqual([
      "  - Starts from the balances of",
      "    2026-12-07 and assumes nothing else",
      "    changes through 2027-03-07.",
    ]);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(40);
  });

  it("counts wide characters by their columns, and leaves a word too long for a line alone", () => {
    expect(wrapText("日本語 日本語 x", 12, { first: "", rest: "" })).toEqual(["日本語", "日本語 x"]);
    expect(wrapText("a https://example.com/a/very/long/path b", 10, { first: "", rest: "" })).toEqual([
      "a",
      "https://example.com/a/very/long/path",
      "b",
    ]);
  });
});
