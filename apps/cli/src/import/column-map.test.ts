import { describe, expect, it } from "vitest";
import { parseColumnMap } from "./column-map";

describe("parseColumnMap", () => {
  it.each([
    [
      "date=Date,amount=Amount,description=Description",
      { date: "Date", amount: "Amount", description: ["Description"] },
    ],
    [
      " DATE = Posting Date , description=Payee+Memo, debit=Debit,credit=Credit,balance=Balance,",
      {
        date: "Posting Date",
        description: ["Payee", "Memo"],
        debit: "Debit",
        credit: "Credit",
        balance: "Balance",
      },
    ],
    ["date=D,description=X,debit=Out", { date: "D", description: ["X"], debit: "Out" }],
  ])("reads %j", (spec, expected) => {
    expect(parseColumnMap(spec)).toEqual(expected);
  });

  it.each([
    ["amount=A,description=X", /'date' is required/],
    ["date=D,amount=A", /'description' is required/],
    ["date=D,description=X", /'amount' \(or 'debit' and 'credit'\) is required/],
    ["date=D,description=X,amount=A,debit=B", /either 'amount' or 'debit'\/'credit'/],
    ["date=D,description=X,amount=A,date=E", /'date' is given twice/],
    ["date=D,description=X,amount=A,memo=M", /unknown key 'memo'/],
    ["date=D,description,amount=A", /'description' is not key=Column/],
    ["date=,description=X,amount=A", /'date=' is not key=Column/],
  ])("refuses %j", (spec, message) => {
    expect(() => parseColumnMap(spec)).toThrow(message);
  });
});
