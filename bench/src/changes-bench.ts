import { createDatabase, type Database } from "@allot/db/create-database";
import { rowsOf } from "@allot/db/rows-of";
import { scrapePayload } from "@allot/domain/testing/scrape-payload";
import { sql } from "drizzle-orm";
import type { Figure } from "./figures";
import { postedBalance, SYNC_PATH, type SyncResult } from "./import-bench";
import { asTheSdkSends, login, postJson } from "./seed";
import { seedTransactions } from "./seed-transactions";

/*
 * The change feed (docs/spec/extensions.md §2) read as a client reads it, through the real API
 * process: GET /api/v1/bank-accounts/{id}/changes/ following the cursor until has_more is false.
 * Full sync: from the start (no `since`) on an account seeded with 100,000 transactions. Delta:
 * from the full sync's last cursor after a 5,000-row sync-scrape into that account. Both are read
 * once a round (reading changes nothing, so every round reads the same feed); the sizes come from
 * sizes.ts.
 */

const TARGETS = { full: 20_000, delta: 1_000 };
const CHANGES_PATH = (accountId: string) => `/api/v1/bank-accounts/${accountId}/changes/`;

export interface ChangesBenchContext {
  databaseUrl: string;
  apiUrl: string;
  bankId: string;
  owner: { email: string };
  sizes: ChangesSizes;
  environment: string;
}

interface ChangesSizes {
  /** Transactions seeded into the account. */
  stored: number;
  /** New posted rows of the sync-scrape, and pending ones on top. */
  scraped: number;
  pending: number;
  /** Changes asked for a page. */
  pageSize: number;
  rounds: number;
}

interface ChangesPage {
  cursor: string;
  has_more: boolean;
  changes: { type: string; id: string; deleted: boolean }[];
}

/** One read of the feed to its end. */
interface FeedRead {
  ms: number;
  /** Each page's answer time, in ms. */
  pageMs: number[];
  changes: number;
  largestPage: number;
  /** Changes by kind: `transaction`, `transaction deleted`, … */
  kinds: Record<string, number>;
  /** Objects that came more than once. */
  repeated: number;
  cursor: string;
}

export async function benchChanges(
  context: ChangesBenchContext,
): Promise<{ report: string; figures: Figure[]; problems: string[] }> {
  const { stored, scraped, pending, pageSize, rounds } = context.sizes;
  const problems: string[] = [];
  const handle = await createDatabase({ url: context.databaseUrl, maxConnections: 1 });
  try {
    const token = await login(context.apiUrl, context.owner.email);
    const account = (await postJson(
      context.apiUrl,
      "/api/v1/bank-accounts/",
      token,
      { name: "Changes bench", bank: context.bankId },
      201,
    )) as { id: string };
    const seededMs = await seedTransactions(context.databaseUrl, account.id, stored);
    console.error(`Changes: seeded ${stored} transactions in ${(seededMs / 1000).toFixed(1)} s`);
    const live = await liveObjects(handle.db, account.id);
    const read = (since: string | undefined) => readFeed(context.apiUrl, token, account.id, since, pageSize);

    const full: FeedRead[] = [];
    for (let round = 0; round < rounds; round++) {
      const result = await read(undefined);
      console.error(
        `  full sync ${round + 1}/${rounds}: ${ms(result.ms)} ms, ${result.pageMs.length} pages, ${count(result.changes)} objects`,
      );
      problems.push(...fullSyncProblems(result, live, pageSize).map((p) => `full sync ${round + 1}: ${p}`));
      full.push(result);
    }
    const since = full[full.length - 1]?.cursor;
    if (since === undefined) throw new Error("no full sync ran");

    const payload = scrapePayload(await postedBalance(handle.db, account.id), scraped, pending);
    const syncStarted = performance.now();
    const sync = (await postJson(
      context.apiUrl,
      SYNC_PATH(account.id),
      token,
      payload,
      200,
      asTheSdkSends(),
    )) as SyncResult;
    const syncMs = performance.now() - syncStarted;
    console.error(`  sync-scrape of ${scraped} rows: ${ms(syncMs)} ms`);
    if (sync.inserted_posted !== scraped || sync.balance_mismatch !== null)
      problems.push(`sync-scrape: ${JSON.stringify(sync).slice(0, 400)}`);

    const delta: FeedRead[] = [];
    for (let round = 0; round < rounds; round++) {
      const result = await read(since);
      console.error(
        `  delta ${round + 1}/${rounds}: ${ms(result.ms)} ms, ${result.pageMs.length} pages, ${count(result.changes)} changes`,
      );
      problems.push(...deltaProblems(result, sync, pageSize).map((p) => `delta ${round + 1}: ${p}`));
      delta.push(result);
    }
    return {
      report: formatReport({ full, delta, syncMs, live }, context),
      figures: changesFigures(full, delta, context.sizes),
      problems,
    };
  } finally {
    await handle.close();
  }
}

/** GET …/changes/ from `since` (or the start), page after page along the cursor, until has_more is false. */
async function readFeed(
  apiUrl: string,
  token: string,
  accountId: string,
  since: string | undefined,
  pageSize: number,
): Promise<FeedRead> {
  const pageMs: number[] = [];
  const kinds: Record<string, number> = {};
  const seen = new Set<string>();
  let changes = 0;
  let largestPage = 0;
  let repeated = 0;
  let cursor = since;
  const started = performance.now();
  for (;;) {
    const query = new URLSearchParams({ page_size: String(pageSize), ...(cursor ? { since: cursor } : {}) });
    const pageStarted = performance.now();
    const response = await fetch(`${apiUrl}${CHANGES_PATH(accountId)}?${query}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`GET changes answered ${response.status}: ${text.slice(0, 500)}`);
    const page = JSON.parse(text) as ChangesPage;
    pageMs.push(performance.now() - pageStarted);
    for (const change of page.changes) {
      const kind = `${change.type}${change.deleted ? " deleted" : ""}`;
      kinds[kind] = (kinds[kind] ?? 0) + 1;
      const key = `${change.type} ${change.id}`;
      if (seen.has(key)) repeated++;
      seen.add(key);
    }
    changes += page.changes.length;
    largestPage = Math.max(largestPage, page.changes.length);
    // A feed that promises more but gives nothing, or the same place again, would never end.
    if (page.has_more && (page.changes.length === 0 || page.cursor === cursor))
      throw new Error(`the feed answered has_more with no progress after ${pageMs.length} pages`);
    cursor = page.cursor;
    if (!page.has_more) break;
  }
  return { ms: performance.now() - started, pageMs, changes, largestPage, kinds, repeated, cursor };
}

interface LiveObjects {
  transactions: number;
  allocations: number;
  budgets: number;
}

/** What a full sync must hold at least: every transaction, allocation and budget, and the account. */
async function liveObjects(db: Database, accountId: string): Promise<LiveObjects> {
  const [row] = rowsOf<LiveObjects>(
    await db.execute(sql`
      select (select count(*)::int from transactions where bank_account_id = ${accountId}) as transactions,
        (select count(*)::int from transaction_allocations where bank_account_id = ${accountId}) as allocations,
        (select count(*)::int from budgets where bank_account_id = ${accountId}) as budgets`),
  );
  if (!row) throw new Error(`no counts for account ${accountId}`);
  return row;
}

const expectedObjects = (live: LiveObjects) => live.transactions + live.allocations + live.budgets + 1;

function pageProblems(read: FeedRead, pageSize: number): string[] {
  return [
    ...(read.largestPage > pageSize
      ? [`a page held ${read.largestPage} changes (page_size ${pageSize})`]
      : []),
    ...(read.repeated > 0 ? [`${read.repeated} objects came more than once`] : []),
  ];
}

function fullSyncProblems(read: FeedRead, live: LiveObjects, pageSize: number): string[] {
  const deletions = Object.entries(read.kinds).filter(([kind]) => kind.endsWith(" deleted"));
  return [
    ...pageProblems(read, pageSize),
    ...(read.changes < expectedObjects(live)
      ? [`${read.changes} objects, expected at least ${expectedObjects(live)} (${JSON.stringify(live)})`]
      : []),
    ...(deletions.length > 0
      ? [`a snapshot of the living held deletions: ${JSON.stringify(read.kinds)}`]
      : []),
  ];
}

function deltaProblems(read: FeedRead, sync: SyncResult, pageSize: number): string[] {
  const inserted = sync.inserted_posted + sync.inserted_pending;
  const transactions = read.kinds.transaction ?? 0;
  const deleted = read.kinds["transaction deleted"] ?? 0;
  return [
    ...pageProblems(read, pageSize),
    ...(transactions < inserted ? [`${transactions} transactions, expected the ${inserted} inserted`] : []),
    ...(deleted < sync.deleted_pending
      ? [`${deleted} transaction deletions, expected the ${sync.deleted_pending} pending rows replaced`]
      : []),
  ];
}

const ms = (value: number) => Math.round(value).toLocaleString("en");
const count = (value: number) => value.toLocaleString("en");
const plural = (value: number, noun: string) => `${count(value)} ${noun}${value === 1 ? "" : "s"}`;
const perSecond = (read: FeedRead) => (read.changes * 1000) / read.ms;
/** The round of median time (reads of the same feed hold the same changes). */
const medianRead = (reads: FeedRead[]) => {
  const sorted = [...reads].sort((a, b) => a.ms - b.ms);
  const median = sorted[Math.floor(sorted.length / 2)];
  if (!median) throw new Error("no read of the feed");
  return median;
};
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
};

function changesFigures(full: FeedRead[], delta: FeedRead[], sizes: ChangesSizes): Figure[] {
  const fullRead = medianRead(full);
  const deltaRead = medianRead(delta);
  return [
    {
      id: "changes.full-sync",
      group: "changes",
      scenario: `changes: full sync (no since) of an account of ${count(sizes.stored)} transactions, pages of ${sizes.pageSize}`,
      value: fullRead.ms,
      unit: "ms",
      detail:
        `${count(fullRead.pageMs.length)} pages, ${count(fullRead.changes)} objects, ` +
        `${count(Math.round(perSecond(fullRead)))} objects/s`,
      threshold: { comparison: "<", value: TARGETS.full },
      note: null,
    },
    {
      id: "changes.delta-after-sync-scrape",
      group: "changes",
      scenario: `changes: the delta after a ${count(sizes.scraped)}-row sync-scrape, pages of ${sizes.pageSize}`,
      value: deltaRead.ms,
      unit: "ms",
      detail: `${count(deltaRead.pageMs.length)} pages, ${count(deltaRead.changes)} changes`,
      threshold: { comparison: "<", value: TARGETS.delta },
      note: null,
    },
  ];
}

function formatReport(
  run: { full: FeedRead[]; delta: FeedRead[]; syncMs: number; live: LiveObjects },
  context: ChangesBenchContext,
): string {
  const { stored, scraped, pending, pageSize } = context.sizes;
  const fullRead = medianRead(run.full);
  const deltaRead = medianRead(run.delta);
  const verdict = (value: number, target: number) => (value < target ? "met" : "MISSED");
  const row = (what: string, read: FeedRead, target: number, targetText: string) =>
    `| ${what} | ${ms(read.ms)} | ${count(read.pageMs.length)} | ${count(read.changes)} | ` +
    `${count(Math.round(perSecond(read)))} | ${ms(percentile(read.pageMs, 50))} / ${ms(Math.max(...read.pageMs))} | ` +
    `${targetText} | ${verdict(read.ms, target)} |`;
  const kinds = (read: FeedRead) =>
    Object.entries(read.kinds)
      .map(([kind, n]) => `${kind} ${count(n)}`)
      .join(", ");
  return [
    `GET ${CHANGES_PATH("{id}")}?page_size=${pageSize} through the real API process, following the cursor ` +
      `until has_more is false, as a client syncs: from the start (no since) on an account seeded with ` +
      `${count(stored)} transactions (and ${count(run.live.allocations)} allocations, ${plural(run.live.budgets, "budget")}); ` +
      `then, from that sync's last cursor, after a sync-scrape of ${count(scraped)} new posted rows and ` +
      `${pending} pending ones (${ms(run.syncMs)} ms). Median of ${run.full.length} reads of each; ${context.environment}`,
    "",
    "| scenario | time (ms) | pages | changes | changes/s | page p50 / max (ms) | target | result |",
    "|---|---:|---:|---:|---:|---:|---|---|",
    row(`full sync, account of ${count(stored)}`, fullRead, TARGETS.full, "< 20 s"),
    row(`delta after a ${count(scraped)}-row sync-scrape`, deltaRead, TARGETS.delta, "< 1 s"),
    "",
    `- Per read: full ${run.full.map((r) => ms(r.ms)).join(" / ")} ms; delta ${run.delta.map((r) => ms(r.ms)).join(" / ")} ms.`,
    `- Full sync: ${kinds(fullRead)}. Delta: ${kinds(deltaRead)}.`,
    `- Every page held at most ${pageSize} changes, no object came twice in a read, the full sync held ` +
      "every transaction, allocation and budget and the account, and the delta every transaction the " +
      "sync-scrape inserted and every pending row it replaced.",
    "",
  ].join("\n");
}
