import { describe, expect, it } from "vitest";
import { UsageError } from "../output";
import { amountFlag, dateFlag, transactionId } from "./transaction-flags";

describe("transaction flags", () => {
  it("reads ids lower-cased, and dates and amounts as written", () => {
    expect(transactionId(" 7F0C2A4E-0000-4000-8000-00000000000A ")).toBe(
      "7f0c2a4e-0000-4000-8000-00000000000a",
    );
    expect(dateFlag("--from", "2026-01-31")).toBe("2026-01-31");
    expect(dateFlag("--from", "2026-01-31T08:00:00+02:00")).toBe("2026-01-31T08:00:00+02:00");
    expect(amountFlag("--amount", "-12.5")).toBe("-12.5");
    expect(amountFlag("--amount", "100")).toBe("100");
  });

  it.each([
    [() => transactionId("12345"), "'12345' is not a transaction id"],
    [() => dateFlag("--to", "2026-02-30"), "--to must be a date like 2026-01-31"],
    [() => dateFlag("--to", "yesterday"), "--to must be a date like 2026-01-31"],
    [() => amountFlag("--amount", "12.345"), "--amount must be an amount like -12.50"],
    [() => amountFlag("--amount", "1e3"), "--amount must be an amount like -12.50"],
    [() => amountFlag("--amount", "$5"), "--amount must be an amount like -12.50"],
  ])("refuses a bad value as a usage error (%#)", (read, message) => {
    expect(read).toThrow(UsageError);
    expect(read).toThrow(message);
  });
});
