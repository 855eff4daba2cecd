import type { TRANSACTION_TYPES } from "@allot/contract/transactions/transaction";
import { ImportFileError, ProblemList, ValueProblem } from "./import-file-error";
import {
  child,
  childValue,
  descendants,
  type OfxElement,
  OfxSyntaxError,
  parseOfxDocument,
} from "./ofx-document";
import { parseAmount } from "./parse-amount";
import type { Statement, StatementRow } from "./statement";
import { newestFirst } from "./statement-order";

// OFX TRNTYPE → Allot's transaction_type, where one clearly fits; the rest are left empty
// (CREDIT, DEBIT, DEP, XFER, CASH, … say too little to pick one).
const TRANSACTION_TYPE: Partial<Record<string, (typeof TRANSACTION_TYPES)[number]>> = {
  INT: "interest_credit",
  FEE: "fee",
  SRVCHG: "fee",
  ATM: "atm_withdrawal",
  POS: "pin_purchase",
  CHECK: "check",
  PAYMENT: "bill_payment",
  DIRECTDEP: "ach",
  DIRECTDEBIT: "ach",
};

// YYYYMMDD, then optionally HHMMSS[.XXX] and a zone such as [-5:EST]; only the date is kept.
const OFX_DATE = /^(\d{4})(\d{2})(\d{2})(?:\d{2}(?:\d{2}(?:\d{2}(?:\.\d{1,3})?)?)?)?(?:\s*\[[^\]]*\])?$/;

/**
 * An OFX date as a bare YYYY-MM-DD: the day as the bank wrote it, which is the statement's day in
 * the bank's own zone (sync-scrape reads a bare date as that day in the account's time zone).
 * Converting through the [offset] would move late-evening rows to the next day.
 */
export function ofxDate(text: string): string {
  const match = OFX_DATE.exec(text.trim());
  const [year, month, day] = match ? [Number(match[1]), Number(match[2]), Number(match[3])] : [0, 0, 0];
  const date = new Date(Date.UTC(2000, month - 1, day));
  if (
    !match ||
    month < 1 ||
    month > 12 ||
    date.getUTCDate() !== day ||
    (month === 2 && day === 29 && !leap(year))
  )
    throw new ValueProblem(`'${text}' is not an OFX date (YYYYMMDD…)`);
  return `${match[1]}-${match[2]}-${match[3]}`;
}

const leap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

// OFX allows a comma as the decimal mark; such files never group thousands.
const ofxAmount = (text: string) => parseAmount(text, text.includes(",") && !text.includes(".") ? "," : ".");

/** NAME (or PAYEE's) and MEMO: banks cut NAME to 32 characters and put the rest, or more, in MEMO. */
function description(transaction: OfxElement): string | undefined {
  const payee = child(transaction, "PAYEE");
  const name = childValue(transaction, "NAME") ?? (payee && childValue(payee, "NAME"));
  const memo = childValue(transaction, "MEMO");
  if (name && memo) {
    if (memo.startsWith(name)) return memo;
    if (name.startsWith(memo)) return name;
    return `${name} ${memo}`;
  }
  const checkNumber = childValue(transaction, "CHECKNUM");
  return name ?? memo ?? (checkNumber ? `CHECK ${checkNumber}` : childValue(transaction, "TRNTYPE"));
}

function readTransaction(transaction: OfxElement, problems: ProblemList): StatementRow | undefined {
  const line = transaction.line;
  const required = (name: string) => {
    const value = childValue(transaction, name);
    if (value === undefined) throw new ValueProblem(`<STMTTRN> has no ${name}`);
    return value;
  };
  const postedDate = problems.at(line, () => ofxDate(required("DTPOSTED")));
  const amount = problems.at(line, () => ofxAmount(required("TRNAMT")));
  const rawDescription = description(transaction);
  if (rawDescription === undefined) problems.add(line, "<STMTTRN> has no NAME, MEMO, CHECKNUM or TRNTYPE");
  if (postedDate === undefined || amount === undefined || rawDescription === undefined) return undefined;
  const type = TRANSACTION_TYPE[childValue(transaction, "TRNTYPE")?.toUpperCase() ?? ""];
  return {
    line,
    is_pending: false,
    posted_date: postedDate,
    amount,
    raw_description: rawDescription,
    ...(type ? { transaction_type: type } : {}),
  };
}

const accountIdOf = (statement: OfxElement) =>
  childValue(child(statement, "BANKACCTFROM") ?? child(statement, "CCACCTFROM") ?? statement, "ACCTID") ??
  "?";

/**
 * The bank or credit card statement of an OFX/QFX file: its posted rows newest first, and its
 * ledger balance (the posted balance, which is what the rows add up to) as the ending balance.
 * A file with several statements needs `account` (an ACCTID) to say which one.
 */
export function readOfxStatement(text: string, file: string, options: { account?: string } = {}): Statement {
  let document: OfxElement;
  try {
    document = parseOfxDocument(text);
  } catch (error) {
    if (error instanceof OfxSyntaxError)
      throw new ImportFileError(file, [{ line: error.line, message: error.message }]);
    throw error;
  }
  const all = [...descendants(document, "STMTRS"), ...descendants(document, "CCSTMTRS")];
  const statements = options.account ? all.filter((s) => accountIdOf(s) === options.account) : all;
  const ids = all.map(accountIdOf).join(", ");
  if (statements.length === 0) {
    const message = options.account
      ? `no statement for account '${options.account}' (the file has: ${ids || "none"})`
      : "no bank or credit card statement (<STMTRS> or <CCSTMTRS>) in the file";
    throw new ImportFileError(file, [{ line: null, message }]);
  }
  const [statement] = statements as [OfxElement, ...OfxElement[]];
  if (statements.length > 1)
    throw new ImportFileError(file, [
      {
        line: null,
        message: `the file holds ${statements.length} statements (accounts ${ids}): choose one with --ofx-account`,
      },
    ]);

  const problems = new ProblemList();
  const list = child(statement, "BANKTRANLIST");
  const rows = (list ? list.children.filter((c) => c.name === "STMTTRN") : []).flatMap(
    (transaction) => readTransaction(transaction, problems) ?? [],
  );
  const ledger = child(statement, "LEDGERBAL");
  const balance = ledger && childValue(ledger, "BALAMT");
  const endingBalance =
    balance === undefined ? null : (problems.at(ledger?.line ?? 1, () => ofxAmount(balance)) ?? null);
  const currency = childValue(statement, "CURDEF");
  if (currency !== undefined && !/^[A-Za-z]{3}$/.test(currency))
    problems.add(child(statement, "CURDEF")?.line ?? null, `CURDEF '${currency}' is not a currency code`);
  problems.throwIfAny(file);
  return {
    rows: newestFirst(rows),
    endingBalance,
    ...(currency ? { endingBalanceCurrency: currency.toUpperCase() } : {}),
  };
}
