/** One bank row as sync-scrape takes it, with the line of the file it came from. */
export interface StatementRow {
  /** 1-based line in the file, for problems and for the dry run's list. */
  line: number;
  is_pending: boolean;
  /** A bare YYYY-MM-DD (that day in the account's time zone) or, from scrape files, a date-time. */
  posted_date: string;
  raw_description: string;
  /** A decimal string: money never passes through a float. */
  amount: string;
  transaction_type?: string;
  running_balance?: string | null;
  amount_currency?: string;
  /** Scrape files only: the provider's record, sent to transaction-details after the sync. */
  details?: Record<string, unknown>;
  category?: string | null;
}

/** What an import file says, ready to send. */
export interface Statement {
  /** Newest first, as sync-scrape wants them. */
  rows: StatementRow[];
  /** The bank's balance after the newest row, or null when the file does not say. */
  endingBalance: string | null;
  endingBalanceCurrency?: string;
  /** Scrape files carry their own; the others are stamped with the time of the import. */
  scrapedAt?: string;
}
