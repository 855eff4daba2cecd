import { MAX_SCRAPE_ROWS, type SyncScrapeResult } from "@allot/contract/import/import";
import { formatMoney, toMoney, ZERO } from "@allot/contract/money";
import type { Client } from "@allot/sdk/client";
import { type Chunk, type ChunkLimits, chunkRows } from "./chunk-rows";
import type { Statement, StatementRow } from "./statement";

/**
 * When the file's ending balance is sent for the server to compare (a difference raises a
 * notification the user cannot turn off): `always` (scrape files: the scraper's balance is today's),
 * `if-current` (statements: only when the account holds nothing posted after the file's last day,
 * else the file's balance is not the account's), `never` (--no-balance-check).
 */
export type BalanceCheck = "always" | "if-current" | "never";

/** What became of one row of the file. */
export interface RowOutcome {
  row: StatementRow;
  action: "insert" | "skip" | "insert_pending";
  /** The transaction a posted row is (new or matched); null when it already has details, or pending. */
  transaction: string | null;
}

export interface SyncOutcome {
  syncs: number;
  deleted_pending: number;
  inserted_posted: number;
  skipped_posted: number;
  inserted_pending: number;
  /** Whether the file's balance was compared; when not, `balance_note` says why. */
  balance_checked: boolean;
  balance_note: string | null;
  /** The account's balance minus the file's (predicted, in a dry run); null when equal or not checked. */
  balance_mismatch: string | null;
  posting_order_mismatches: string[];
  last_posted_through: string | null;
  /** Newest first, as the file's rows. */
  rows: RowOutcome[];
}

// 5,000 rows make a progress bar move on a large file and keep each sync's transaction short;
// 4 MB of rows leaves room under the server's 5 MB body limit.
const DEFAULT_LIMITS: ChunkLimits = { rows: Math.min(5_000, MAX_SCRAPE_ROWS), bytes: 4_000_000 };

const wire = (row: StatementRow) => ({
  is_pending: row.is_pending,
  posted_date: row.posted_date,
  raw_description: row.raw_description,
  amount: row.amount,
  ...(row.transaction_type === undefined ? {} : { transaction_type: row.transaction_type }),
  ...(row.running_balance === undefined ? {} : { running_balance: row.running_balance }),
  ...(row.amount_currency === undefined ? {} : { amount_currency: row.amount_currency }),
});

/** Each row's fate, read from the answer: a posted row is new when its transaction is a new one. */
function outcomesOf(rows: readonly StatementRow[], result: SyncScrapeResult): RowOutcome[] {
  const created = new Set(result.new_transaction_ids);
  const needed = new Map(result.details_needed.map((d) => [d.index, d.transaction]));
  return rows.map((row, index) => {
    if (row.is_pending) return { row, action: "insert_pending", transaction: null };
    const transaction = needed.get(index) ?? null;
    return { row, action: transaction && created.has(transaction) ? "insert" : "skip", transaction };
  });
}

// The server names rows by their place in the payload; people know them by their line.
const withLines = (messages: readonly string[], rows: readonly StatementRow[]) =>
  messages.map((m) =>
    m.replace(/transactions\.(\d+)/g, (whole, i) =>
      rows[Number(i)] ? `line ${rows[Number(i)]?.line}` : whole,
    ),
  );

/** Zero stands for no difference (the server answers null then). */
const money = (value: string | null) => value ?? "0.00";

/**
 * Sends a file's rows through sync-scrape, oldest sync first (see chunk-rows), each sync first as a
 * dry run. The dry run tells the balance the account will have after the sync (the server answers
 * balance_mismatch = computed − sent, and a dry run sends 0), which is sent as the ending balance of
 * every sync but the last, and of the last when the file's own balance is not to be checked: so no
 * made-up balance ever raises a mismatch. With `dryRun`, only the dry runs are sent.
 */
export async function sendSync(
  imports: Client["imports"],
  accountId: string,
  statement: Statement,
  options: {
    dryRun: boolean;
    balanceCheck: BalanceCheck;
    limits?: ChunkLimits;
    onProgress?: (rows: number) => void;
  },
): Promise<SyncOutcome> {
  const chunks = chunkRows(statement.rows, options.limits ?? DEFAULT_LIMITS);
  if (chunks.length === 0) chunks.push({ rows: [], overlap: 0 });
  const scrapedAt = statement.scrapedAt ?? new Date().toISOString();
  const send = (chunk: Chunk, endingBalance: string, dryRun: boolean) =>
    imports.syncScrape({
      id: accountId,
      scraped_at: scrapedAt,
      ending_balance: endingBalance,
      ...(statement.endingBalanceCurrency
        ? { ending_balance_currency: statement.endingBalanceCurrency }
        : {}),
      transactions: chunk.rows.map(wire),
      dry_run: dryRun,
    });

  const outcomes: RowOutcome[][] = [];
  const mismatches = new Set<string>();
  let deletedPending = 0;
  let insertedBefore = ZERO;
  let balance = { checked: false, note: null as string | null, mismatch: null as string | null };
  let lastPostedThrough: string | null = null;
  let done = 0;

  for (const [at, chunk] of chunks.entries()) {
    const own = chunk.rows.length - chunk.overlap;
    const probe = await send(chunk, "0.00", true);
    const computed = money(probe.balance_mismatch);
    const probed = outcomesOf(chunk.rows, probe);
    const resent = probed.slice(own).find((o) => o.action !== "skip");
    if (!options.dryRun && resent)
      throw new Error(
        `line ${resent.row.line} was sent in the previous sync but would be inserted again; stopping (${at} of ${chunks.length} syncs done).`,
      );

    const last = at === chunks.length - 1;
    const decision = last ? decideBalance(statement, options.balanceCheck, probe.last_posted_through) : null;
    const result = options.dryRun ? probe : await send(chunk, decision?.send ?? computed, false);
    const rows = options.dryRun ? probed : outcomesOf(chunk.rows, result);
    outcomes.push(rows.slice(0, own));
    for (const m of withLines(result.posting_order_mismatches, chunk.rows)) mismatches.add(m);
    deletedPending = options.dryRun
      ? Math.max(deletedPending, result.deleted_pending)
      : deletedPending + result.deleted_pending;
    lastPostedThrough = result.last_posted_through;
    if (decision) {
      let mismatch = result.balance_mismatch;
      // A dry run of the last sync does not hold the rows the earlier ones would have inserted.
      if (options.dryRun && decision.send) {
        const difference = toMoney(computed).plus(insertedBefore).minus(decision.send);
        mismatch = difference.eq(0) ? null : formatMoney(difference);
      }
      balance = {
        checked: decision.send !== null,
        note: decision.note,
        mismatch: decision.send === null ? null : mismatch,
      };
    }
    for (const o of rows.slice(0, own))
      if (o.action === "insert") insertedBefore = insertedBefore.plus(o.row.amount);
    done += own;
    options.onProgress?.(done);
  }

  const rows = outcomes.reverse().flat();
  const count = (action: RowOutcome["action"]) => rows.filter((o) => o.action === action).length;
  return {
    syncs: chunks.length,
    deleted_pending: deletedPending,
    inserted_posted: count("insert"),
    skipped_posted: count("skip"),
    inserted_pending: count("insert_pending"),
    balance_checked: balance.checked,
    balance_note: balance.note,
    balance_mismatch: balance.mismatch,
    posting_order_mismatches: [...mismatches],
    last_posted_through: lastPostedThrough,
    rows,
  };
}

/** The file's balance to send with the last sync, or null (send the computed one) and why. */
function decideBalance(
  statement: Statement,
  check: BalanceCheck,
  lastPostedThrough: string | null,
): { send: string | null; note: string | null } {
  if (check === "never") return { send: null, note: "not checked (--no-balance-check)" };
  if (statement.endingBalance === null) return { send: null, note: "not checked: the file gives no balance" };
  const newest = statement.rows
    .filter((r) => !r.is_pending)
    .reduce<string | null>(
      (max, r) => (max === null || r.posted_date.slice(0, 10) > max ? r.posted_date.slice(0, 10) : max),
      null,
    );
  if (check === "if-current" && lastPostedThrough && newest && lastPostedThrough > newest)
    return {
      send: null,
      note: `not checked: the account has rows posted through ${lastPostedThrough}, after this file's last day (${newest})`,
    };
  return { send: statement.endingBalance, note: null };
}
