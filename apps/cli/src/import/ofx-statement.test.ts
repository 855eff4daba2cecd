import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { ImportFileError } from "./import-file-error";
import { ofxDate, readOfxStatement } from "./ofx-statement";

const fixture = (name: string) => readFile(new URL(`../../test/fixtures/${name}`, import.meta.url), "utf8");

/** A 1.x statement around the given STMTTRN lines (each line of `body` is one file line, from line 3). */
const sgml = (body: string, extra = "<LEDGERBAL><BALAMT>10.00<DTASOF>20240110</LEDGERBAL>") =>
  `OFXHEADER:100\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>usd<BANKACCTFROM><ACCTID>1</BANKACCTFROM><BANKTRANLIST>\n${body}\n</BANKTRANLIST>${extra}</STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>`;

const problemsOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof ImportFileError) return (error.extra as { problems: unknown }).problems;
    throw error;
  }
  throw new Error("expected an ImportFileError");
};

describe("ofxDate", () => {
  it.each([
    ["20240301", "2024-03-01"],
    ["20240301120000", "2024-03-01"],
    ["20240308235900[-8:PST]", "2024-03-08"],
    ["20240301120000.000[-5:EST]", "2024-03-01"],
    ["20240229", "2024-02-29"],
    ["202403011200", "2024-03-01"],
    ["20240419000000.000[+1:CET]", "2024-04-19"],
  ])("%s is %s", (text, expected) => {
    expect(ofxDate(text)).toBe(expected);
  });

  it.each(["2024-03-01", "20240230", "20230229", "20241301", "2024030", "", "20240301X"])(
    "refuses %j",
    (text) => {
      expect(() => ofxDate(text)).toThrow(/is not an OFX date/);
    },
  );
});

describe("readOfxStatement", () => {
  it("reads a 1.x SGML file listed oldest first: newest first out, empty MEMO, NAME+MEMO, CHECKNUM", async () => {
    const statement = readOfxStatement(await fixture("checking-1x.ofx"), "checking-1x.ofx");
    expect(statement.endingBalance).toBe("2235.84");
    expect(statement.endingBalanceCurrency).toBe("USD");
    expect(
      statement.rows.map((r) => [r.posted_date, r.amount, r.raw_description, r.transaction_type]),
    ).toEqual([
      ["2024-03-08", "-89.99", "AT&T WIRELESS AUTOPAY", "bill_payment"],
      ["2024-03-05", "-120.00", "CHECK 1042", "check"],
      // One day's rows keep the bank's order between them, reversed with the rest.
      ["2024-03-02", "-4.50", "BLUE BOTTLE COFFEE", "pin_purchase"],
      ["2024-03-02", "-4.50", "BLUE BOTTLE COFFEE", "pin_purchase"],
      ["2024-03-02", "-45.17", "SAFEWAY #1234 OAKLAND CA", "pin_purchase"],
      ["2024-03-01", "2500.00", "ACME CORP PAYROLL", "ach"],
    ]);
    expect(statement.rows.every((r) => r.is_pending === false)).toBe(true);
    expect(statement.rows.map((r) => r.line)).toEqual([76, 69, 62, 55, 47, 39]);
  });

  it("reads a 2.x XML file listed newest first, keeping its order; types it cannot map stay empty", async () => {
    const statement = readOfxStatement(await fixture("checking-2x.ofx"), "checking-2x.ofx");
    expect(statement.endingBalance).toBe("751.07");
    expect(
      statement.rows.map((r) => [r.posted_date, r.amount, r.raw_description, r.transaction_type]),
    ).toEqual([
      ["2024-04-19", "1.07", "INTEREST PAYMENT", "interest_credit"],
      ["2024-04-10", "-250.00", "TRANSFER TO CHECKING Ref 88231 <online>", undefined],
      ["2024-04-02", "1000.00", "DEPOSIT", undefined],
    ]);
  });

  it("reads a QFX credit card statement (CCSTMTRS, Intuit tags, everything on a few lines)", async () => {
    const statement = readOfxStatement(await fixture("card.qfx"), "card.qfx");
    expect(statement.endingBalance).toBe("213.08");
    expect(statement.rows.map((r) => [r.posted_date, r.amount, r.raw_description, r.line])).toEqual([
      ["2024-05-30", "-2.50", "FOREIGN TRANSACTION FEE", 16],
      ["2024-05-28", "300.00", "PAYMENT - THANK YOU", 15],
      ["2024-05-15", "-61.02", "SHELL OIL 5744623 FUEL", 14],
      ["2024-05-03", "-23.40", "CHIPOTLE 1187", 13],
    ]);
  });

  it.each([
    ["a comma decimal mark", "<STMTTRN><DTPOSTED>20240102<TRNAMT>-3,10<NAME>A</STMTTRN>", "-3.10"],
    ["a PAYEE aggregate", "<STMTTRN><DTPOSTED>20240102<TRNAMT>1<PAYEE><NAME>P</PAYEE></STMTTRN>", "1.00"],
  ])("reads %s", (_name, body, amount) => {
    expect(readOfxStatement(sgml(body), "f.ofx").rows[0]?.amount).toBe(amount);
  });

  it("has no ending balance without LEDGERBAL, and no rows without a transaction list", () => {
    const statement = readOfxStatement(sgml("", ""), "f.ofx");
    expect(statement).toEqual({ rows: [], endingBalance: null, endingBalanceCurrency: "USD" });
  });

  it("names every bad line and what is wrong with it", () => {
    const body = [
      "<STMTTRN><DTPOSTED>20240102<TRNAMT>1.00<NAME>ok</STMTTRN>",
      "<STMTTRN><DTPOSTED>2024-01-02<TRNAMT>1.00<NAME>a</STMTTRN>",
      "<STMTTRN><DTPOSTED>20240102<TRNAMT>1.005<NAME>b</STMTTRN>",
      "<STMTTRN><TRNAMT>1.00<NAME>c</STMTTRN>",
      "<STMTTRN><DTPOSTED>20240102<TRNAMT>1.00</STMTTRN>",
    ].join("\n");
    expect(problemsOf(() => readOfxStatement(sgml(body), "f.ofx"))).toEqual([
      { line: 4, message: "'2024-01-02' is not an OFX date (YYYYMMDD…)" },
      { line: 5, message: "'1.005' has more than 2 decimal places" },
      { line: 6, message: "<STMTTRN> has no DTPOSTED" },
      { line: 7, message: "<STMTTRN> has no NAME, MEMO, CHECKNUM or TRNTYPE" },
    ]);
  });

  it("refuses a broken file at its line, and one with no statement", () => {
    expect(problemsOf(() => readOfxStatement("<OFX>\n<A>\n</B>", "f.ofx"))).toEqual([
      { line: 3, message: "</B> closes nothing: no <B> is open" },
    ]);
    expect(
      problemsOf(() => readOfxStatement("<OFX><SIGNONMSGSRSV1></SIGNONMSGSRSV1></OFX>", "f.ofx")),
    ).toEqual([
      { line: null, message: "no bank or credit card statement (<STMTRS> or <CCSTMTRS>) in the file" },
    ]);
  });

  it("needs --ofx-account to pick one of several statements", () => {
    const two = `<OFX>${[1, 2].map((n) => `<STMTRS><CURDEF>USD<BANKACCTFROM><ACCTID>${n}</BANKACCTFROM><BANKTRANLIST><STMTTRN><DTPOSTED>2024010${n}<TRNAMT>${n}<NAME>x</STMTTRN></BANKTRANLIST></STMTRS>`).join("")}</OFX>`;
    expect(problemsOf(() => readOfxStatement(two, "f.ofx"))).toEqual([
      { line: null, message: "the file holds 2 statements (accounts 1, 2): choose one with --ofx-account" },
    ]);
    expect(readOfxStatement(two, "f.ofx", { account: "2" }).rows[0]?.amount).toBe("2.00");
    expect(problemsOf(() => readOfxStatement(two, "f.ofx", { account: "3" }))).toEqual([
      { line: null, message: "no statement for account '3' (the file has: 1, 2)" },
    ]);
  });
});
