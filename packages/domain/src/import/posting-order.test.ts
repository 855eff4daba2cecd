import { describe, expect, it } from "vitest";
import { type PostedChainRow, postingOrderMismatches } from "./posting-order";

const chain = (...rows: [string, string | null | undefined][]): PostedChainRow[] =>
  rows.map(([amount, running_balance], index) => ({ index, amount, running_balance }));

describe("postingOrderMismatches", () => {
  it.each([
    ["no rows", [], []],
    ["one row", chain(["-10.00", "90.00"]), []],
    ["a clean chain", chain(["-10.00", "90.00"], ["25.00", "100.00"], ["-5.5", "75.00"]), []],
    ["exact money, not floats", chain(["0.10", "0.30"], ["0.20", "0.20"]), []],
    [
      "one break",
      chain(["-10.00", "95.00"], ["25.00", "100.00"], ["-5.00", "75.00"]),
      [
        "transactions.0: running balance 95.00 should be 100.00 (running balance of transactions.1) + -10.00 = 90.00",
      ],
    ],
    [
      "two breaks, one message each",
      chain(["-10.00", "1.00"], ["25.00", "2.00"], ["-5.00", "75.00"]),
      [
        "transactions.0: running balance 1.00 should be 2.00 (running balance of transactions.1) + -10.00 = -8.00",
        "transactions.1: running balance 2.00 should be 75.00 (running balance of transactions.2) + 25.00 = 100.00",
      ],
    ],
    ["a missing newer balance skips the pair", chain(["-10.00", null], ["25.00", "100.00"]), []],
    ["a missing older balance skips the pair", chain(["-10.00", "1.00"], ["25.00", undefined]), []],
    ["a gap is not bridged", chain(["-10.00", "1.00"], ["25.00", null], ["-5.00", "75.00"]), []],
    ["text that is not a decimal skips the pair", chain(["-10.00", "abc"], ["25.00", "100.00"]), []],
  ])("%s", (_name, rows, expected) => {
    expect(postingOrderMismatches(rows)).toEqual(expected);
  });

  it("names rows by their payload index, pending rows having been left out by the caller", () => {
    const rows: PostedChainRow[] = [
      { index: 1, amount: "-10.00", running_balance: "80.00" },
      { index: 3, amount: "25.00", running_balance: "100.00" },
    ];
    expect(postingOrderMismatches(rows)).toEqual([
      "transactions.1: running balance 80.00 should be 100.00 (running balance of transactions.3) + -10.00 = 90.00",
    ]);
  });
});
