import {
  ScrapeSyncTransactionSchema,
  syncScrapeFields,
  TransactionDetailsItemSchema,
} from "@allot/contract/import/import";
import { z } from "zod";
import { ImportFileError, ProblemList } from "./import-file-error";
import { arrayElementLines, parseJsonText } from "./json-locations";
import type { Statement, StatementRow } from "./statement";

// The server's own row rules (from the contract), plus the two keys a scraper may add for
// transaction-details. Other keys are dropped.
const ScrapeFileRowSchema = z.object({
  ...ScrapeSyncTransactionSchema.shape,
  details: TransactionDetailsItemSchema.shape.details.optional(),
  category: TransactionDetailsItemSchema.shape.category,
});

// The body's other fields, as the server reads them; no row limit here (long files are sent in
// several syncs).
const ScrapeFileSchema = z.object({
  scraped_at: syncScrapeFields.scraped_at,
  ending_balance: syncScrapeFields.ending_balance,
  ending_balance_currency: syncScrapeFields.ending_balance_currency,
  transactions: z.array(z.unknown(), { error: "Must be an array of transactions." }),
});

const describeIssue = (issue: z.core.$ZodIssue, prefix: string) =>
  `${[prefix, ...issue.path.map(String)].filter((p) => p !== "").join(".")}: ${issue.message}`;

/**
 * A sync-scrape body saved by a scraper (`scraped_at`, `ending_balance`, `transactions` newest
 * first), whose rows may carry `details` and `category`. Every row is checked against the
 * contract's rules, each problem named by the line its row starts on. The order is kept: it is
 * the bank's, which the server reproduces.
 */
export function readScrapeFile(text: string, file: string): Statement {
  const json = parseJsonText(text);
  if (!("value" in json)) throw new ImportFileError(file, [{ line: json.line, message: json.message }]);
  const body = ScrapeFileSchema.safeParse(json.value);
  if (!body.success)
    throw new ImportFileError(
      file,
      body.error.issues.map((issue) => ({ line: null, message: describeIssue(issue, "") })),
    );

  const problems = new ProblemList();
  const lines = arrayElementLines(text, "transactions");
  const rows: StatementRow[] = [];
  body.data.transactions.forEach((raw, index) => {
    const line = lines[index] ?? 1;
    const row = ScrapeFileRowSchema.safeParse(raw);
    if (!row.success) {
      for (const issue of row.error.issues) problems.add(line, describeIssue(issue, `transactions.${index}`));
      return;
    }
    const { details, category, ...fields } = row.data;
    rows.push({
      line,
      ...fields,
      ...(details === undefined ? {} : { details }),
      ...(category === undefined ? {} : { category }),
    });
  });
  problems.throwIfAny(file);
  return {
    rows,
    endingBalance: body.data.ending_balance,
    ...(body.data.ending_balance_currency
      ? { endingBalanceCurrency: body.data.ending_balance_currency }
      : {}),
    scrapedAt: body.data.scraped_at,
  };
}
