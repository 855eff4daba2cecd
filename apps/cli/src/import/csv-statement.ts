import { CsvError } from "csv-parse";
import { parse } from "csv-parse/sync";
import type { ColumnMap } from "./column-map";
import { detectDelimiter } from "./detect-delimiter";
import { ImportFileError, ProblemList, ValueProblem } from "./import-file-error";
import { type DecimalSeparator, parseAmount } from "./parse-amount";
import { parseDate } from "./parse-date";
import type { Statement, StatementRow } from "./statement";
import { newestFirst } from "./statement-order";

export interface CsvOptions {
  map: ColumnMap;
  dateFormat: string;
  decimal: DecimalSeparator;
  /** Detected from the header line when not given. */
  delimiter?: string;
  /** Lines before the header (an account summary some banks print first). */
  skipLines: number;
}

interface Record {
  fields: string[];
  /** The line the record starts on (a quoted field may span lines). */
  line: number;
}

function readRecords(text: string, file: string, options: CsvOptions): Record[] {
  const headerLine = text.split(/\r?\n/)[options.skipLines] ?? "";
  try {
    // With `info: true` each record comes as { record, info } (the typings do not follow the option).
    const parsed = parse(text, {
      delimiter: options.delimiter ?? detectDelimiter(headerLine),
      from_line: options.skipLines + 1,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
    }) as unknown as { record: string[]; info: { lines: number; empty_lines: number } }[];
    // csv-parse tells the line a record ends on; it starts after the previous one and the blank
    // lines skipped since.
    let previousEnd = options.skipLines;
    let previousEmpty = 0;
    return parsed.map(({ record, info }) => {
      const line = previousEnd + 1 + (info.empty_lines - previousEmpty);
      previousEnd = info.lines;
      previousEmpty = info.empty_lines;
      return { fields: record, line };
    });
  } catch (error) {
    if (error instanceof CsvError)
      throw new ImportFileError(file, [
        { line: (error as CsvError & { lines?: number }).lines ?? null, message: error.message },
      ]);
    throw error;
  }
}

const norm = (name: string) => name.trim().toLowerCase();

/**
 * The rows of a bank's CSV export, through a column map: dates in the given format (sent as bare
 * dates), amounts as decimal strings (signed, or debit/credit columns), descriptions joined from one
 * or more columns. With a balance column, each row's balance is its running_balance and the newest
 * row's is the ending balance. Every row is checked before anything is returned.
 */
export function readCsvStatement(text: string, file: string, options: CsvOptions): Statement {
  const [header, ...records] = readRecords(text, file, options);
  if (!header) throw new ImportFileError(file, [{ line: null, message: "the file is empty" }]);
  const problems = new ProblemList();
  const names = header.fields.map(norm);
  const columnOf = (name: string) => {
    const index = names.indexOf(norm(name));
    if (index < 0)
      problems.add(
        header.line,
        `no column '${name}' (the header has: ${header.fields.map((f) => f.trim()).join(", ")})`,
      );
    return index;
  };
  const { map } = options;
  const columns = {
    date: columnOf(map.date),
    description: map.description.map(columnOf),
    amount: map.amount === undefined ? undefined : columnOf(map.amount),
    debit: map.debit === undefined ? undefined : columnOf(map.debit),
    credit: map.credit === undefined ? undefined : columnOf(map.credit),
    balance: map.balance === undefined ? undefined : columnOf(map.balance),
  };
  problems.throwIfAny(file);

  const amountOf = (field: (index: number | undefined) => string): string => {
    if (columns.amount !== undefined) return parseAmount(field(columns.amount), options.decimal);
    const debit = field(columns.debit).trim();
    const credit = field(columns.credit).trim();
    if (debit !== "" && credit !== "")
      throw new ValueProblem(`both debit '${debit}' and credit '${credit}' are given`);
    if (debit === "" && credit === "") throw new ValueProblem("neither debit nor credit is given");
    // Banks print debits either way round ("12.50" or "-12.50"): a debit always takes money out.
    const value = parseAmount(debit || credit, options.decimal).replace(/^-/, "");
    return debit !== "" && value !== "0.00" ? `-${value}` : value;
  };

  const rows: StatementRow[] = [];
  for (const { fields, line } of records) {
    if (fields.every((f) => f.trim() === "")) continue;
    const field = (index: number | undefined) => (index === undefined ? "" : (fields[index] ?? ""));
    const postedDate = problems.at(line, () => parseDate(field(columns.date), options.dateFormat));
    const amount = problems.at(line, () => amountOf(field));
    const description = columns.description
      .map((index) => field(index).replace(/\s+/g, " ").trim())
      .filter((part) => part !== "")
      .join(" ");
    if (description === "") problems.add(line, "the description is empty");
    const balanceText = field(columns.balance).trim();
    const balance =
      balanceText === "" ? null : problems.at(line, () => parseAmount(balanceText, options.decimal));
    if (postedDate === undefined || amount === undefined || description === "" || balance === undefined)
      continue;
    rows.push({
      line,
      is_pending: false,
      posted_date: postedDate,
      amount,
      raw_description: description,
      ...(columns.balance === undefined ? {} : { running_balance: balance }),
    });
  }
  problems.throwIfAny(file);
  const ordered = newestFirst(rows);
  return { rows: ordered, endingBalance: ordered[0]?.running_balance ?? null };
}
