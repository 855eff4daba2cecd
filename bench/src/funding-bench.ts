import { isDeepStrictEqual } from "node:util";
import { BUDGET_TYPE, type BudgetType } from "@allot/contract/budgets/budget-kinds";
import type { ForecastSchema } from "@allot/contract/forecasts/forecast";
import { createDatabase, type Database } from "@allot/db/create-database";
import { forecastAccount } from "@allot/domain/forecasts/forecast-account";
import { type FundingRunResult, runFunding } from "@allot/domain/funding/run-funding";
import { addDays } from "@allot/domain/funding/schedule-events";
import { verifyLedger } from "@allot/domain/ledger/verify-ledger";
import type { Actor } from "@allot/domain/shared/actor";
import { asUser, sessionActor } from "@allot/domain/testing/use-case-context";
import { sql } from "drizzle-orm";
import type { z } from "zod";
import {
  type CountingDatabase,
  exchangesOf,
  openCountingDatabase,
  type Sample,
  type SentStatement,
} from "./counting-database";
import type { Figure } from "./figures";
import { median } from "./median";
import { asTheSdkSends, login, postJson } from "./seed";
import { type FundingAccount, OPENING_BALANCE, seedFundingAccount } from "./seed-funding";

/*
 * The funding engine's year of catch-up: POST /api/v1/bank-accounts/{id}/run-funding/ on an account
 * with 1,000 budgets whose schedules count from a year back, through the real API process (the
 * time, HTTP and auth included), and the same run on an identically seeded account through
 * runFunding in this process on a counting connection (the statements and round trips, and where
 * the time goes). Each round seeds two new accounts; a second run right after each first one finds
 * nothing due. The ledger is verified after the timed part.
 *
 * The forecast (docs/spec/extensions.md §8; issue 34): each round also seeds a third account of the
 * same budget mix whose schedules count from its today, and times GET …/forecast/?until=<today +
 * 365 days>&interval=month through the real API process — the year ahead of the same mix the
 * catch-up processes over its year — against the same round's catch-up over HTTP. Its answer is
 * checked after the timed part.
 */

const TARGET_MS = 3_000;
const FORECAST_TARGET_MS = 1_000;
/** The forecast's time over the same round's catch-up over HTTP. */
const FORECAST_RATIO_TARGET = 0.5;
const FORECAST_DAYS = 365;
/** How far the forecast's event count may stray from the catch-up's occurrences (a share of them). */
const EVENTS_TOLERANCE = 0.01;
const RUN_PATH = (accountId: string) => `/api/v1/bank-accounts/${accountId}/run-funding/`;
const FORECAST_PATH = (accountId: string) => `/api/v1/bank-accounts/${accountId}/forecast/`;

export interface FundingBenchContext {
  databaseUrl: string;
  apiUrl: string;
  bankId: string;
  funder: { id: number; email: string };
  rounds: number;
  /** Budgets of each seeded account (1,000; a handful in the smoke slice). */
  budgets: number;
  /** PostgreSQL, Node, CPUs, load, date: one line. */
  environment: string;
}

interface Run {
  ms: number;
  result: FundingRunResult;
}

interface CountedRun extends Run {
  statements: SentStatement[];
  start: Sample;
  end: Sample;
}

type Forecast = z.output<typeof ForecastSchema>;

interface ForecastRun {
  ms: number;
  /** The answer's size on the wire (the body as sent; the API does not compress it). */
  bytes: number;
  until: string;
  forecast: Forecast;
}

interface ForecastInProcess {
  ms: number;
  statements: number;
  spent: Spent;
  events: number;
}

interface Round {
  seed: FundingAccount;
  http: { first: Run; second: Run };
  /** GET forecast a year ahead on the round's third account (schedules from its today). */
  forecast: { seed: FundingAccount; run: ForecastRun; inProcess: ForecastInProcess };
  inProcess: { first: CountedRun; second: CountedRun };
  /** What the first run left in the tables, counted after the timed part. */
  rows: Rows;
}

export interface FundingBenchResult {
  report: string;
  figures: Figure[];
  /** What went wrong (ledger, results that differ): the run must not be recorded. */
  problems: string[];
}

export async function benchFunding(context: FundingBenchContext): Promise<FundingBenchResult> {
  const handle = await createDatabase({ url: context.databaseUrl, maxConnections: 2 });
  const counting = await openCountingDatabase(context.databaseUrl);
  const actor = sessionActor({ id: context.funder.id, username: context.funder.email });
  const rounds: Round[] = [];
  const problems: string[] = [];
  try {
    for (let round = 0; round < context.rounds; round++) {
      const token = await login(context.apiUrl, context.funder.email);
      const api = { url: context.apiUrl, token, bankId: context.bankId };
      const seedStarted = performance.now();
      const overHttp = await seedFundingAccount(handle.db, api, round, context.budgets);
      const inProcess = await seedFundingAccount(handle.db, api, round, context.budgets);
      const ahead = await seedFundingAccount(handle.db, api, round, context.budgets, {
        schedulesFrom: "today",
      });
      console.error(
        `Funding round ${round + 1}/${context.rounds}: seeded three accounts of ${context.budgets} budgets ` +
          `(as_of ${overHttp.asOf}) in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
      );
      // Alternate which goes first, so neither always meets the tables the other just grew.
      const aheadBefore = await rowsOf(handle.db, ahead.accountId);
      let forecast: ForecastRun | undefined;
      const runHttp = async () => {
        const first = await runOverHttp(api, overHttp);
        const second = await runOverHttp(api, overHttp);
        forecast = await forecastOverHttp(api, ahead);
        return { first, second };
      };
      const runInProcess = async () => ({
        first: await runCounted(counting, actor, inProcess),
        second: await runCounted(counting, actor, inProcess),
      });
      let http: Round["http"];
      let counted: Round["inProcess"];
      if (round % 2 === 0) {
        http = await runHttp();
        counted = await runInProcess();
      } else {
        counted = await runInProcess();
        http = await runHttp();
      }
      if (!forecast) throw new Error("the forecast did not run");
      console.error(
        `  first run ${ms(http.first.ms)} ms over HTTP, ${ms(counted.first.ms)} ms in process ` +
          `(${counted.first.statements.length} statements); second run ${ms(http.second.ms)} / ${ms(counted.second.ms)} ms; ` +
          `forecast a year ahead ${ms(forecast.ms)} ms over HTTP (${count(forecast.forecast.events.length)} events, ` +
          `${megabytes(forecast.bytes)} MB)`,
      );

      // Checked after the timed part: same outcome both ways, nothing due the second time, ledger whole.
      if (!isDeepStrictEqual(http.first.result, counted.first.result))
        problems.push(
          `round ${round + 1}: HTTP and in-process runs differ: ${JSON.stringify(http.first.result).slice(0, 500)} vs ` +
            JSON.stringify(counted.first.result).slice(0, 500),
        );
      for (const [how, second] of [
        ["HTTP", http.second],
        ["in-process", counted.second],
      ] as const)
        if (second.result.transfers !== 0 || occurrencesOf(second.result) !== 0)
          problems.push(
            `round ${round + 1}: the second ${how} run was not idempotent: ${JSON.stringify(second.result)}`,
          );
      const rows = await rowsOf(handle.db, overHttp.accountId);
      if (
        rows.transfers !== http.first.result.transfers ||
        rows.occurrences !== occurrencesOf(http.first.result)
      )
        problems.push(
          `round ${round + 1}: the account holds ${rows.transfers} transfers and ${rows.occurrences} occurrences, ` +
            `the run reported ${JSON.stringify(http.first.result)}`,
        );
      for (const seed of [overHttp, inProcess]) {
        const ledger = await verifyLedger(handle.db, seed.accountId);
        if (ledger.length > 0)
          problems.push(`round ${round + 1}: ledger of ${seed.accountId}: ${ledger.slice(0, 5).join("; ")}`);
      }
      problems.push(
        ...forecastProblems(forecast, ahead, context.budgets).map(
          (problem) => `round ${round + 1}: ${problem}`,
        ),
      );
      const aheadAfter = await rowsOf(handle.db, ahead.accountId);
      if (
        aheadAfter.transfers !== aheadBefore.transfers ||
        aheadAfter.occurrences !== aheadBefore.occurrences
      )
        problems.push(
          `round ${round + 1}: the forecast wrote: its account held ${aheadBefore.transfers} transfers and ` +
            `${aheadBefore.occurrences} occurrences before it, ${aheadAfter.transfers} and ${aheadAfter.occurrences} after`,
        );
      // The same mix over a year of the same length: as many events as the catch-up made occurrences,
      // but for the few a time zone or a leap day moves across either end.
      const made = occurrencesOf(http.first.result);
      const held = forecast.forecast.events.length;
      if (Math.abs(held - made) > made * EVENTS_TOLERANCE)
        problems.push(
          `round ${round + 1}: the forecast's year ahead holds ${held} events, the catch-up's year made ${made} ` +
            `occurrences (more than ${EVENTS_TOLERANCE * 100}% apart)`,
        );
      // Untimed against the goal: the same use case in this process, to tell its work from the HTTP answer's.
      const forecastInProcess = await forecastCounted(counting, actor, ahead, forecast.until);
      if (forecastInProcess.events !== forecast.forecast.events.length)
        problems.push(
          `round ${round + 1}: the forecast in process holds ${forecastInProcess.events} events, over HTTP ` +
            `${forecast.forecast.events.length}`,
        );
      rounds.push({
        seed: overHttp,
        http,
        inProcess: counted,
        rows,
        forecast: { seed: ahead, run: forecast, inProcess: forecastInProcess },
      });
    }
  } finally {
    await counting.close();
    await handle.close();
  }
  if (rounds.length === 0) problems.push("no funding round ran");
  return { report: formatFundingReport(rounds, context), figures: fundingFigures(rounds, context), problems };
}

async function runOverHttp(api: { url: string; token: string }, seed: FundingAccount): Promise<Run> {
  const started = performance.now();
  const result = await postJson(
    api.url,
    RUN_PATH(seed.accountId),
    api.token,
    { as_of: seed.asOf },
    200,
    asTheSdkSends(),
  );
  return { ms: performance.now() - started, result: result as FundingRunResult };
}

/** GET the forecast through `until` = the account's today + 365 days, monthly; timed to the answer's last byte. */
async function forecastOverHttp(
  api: { url: string; token: string },
  seed: FundingAccount,
): Promise<ForecastRun> {
  const until = addDays(seed.asOf, FORECAST_DAYS);
  const query = new URLSearchParams({ until, interval: "month" });
  const started = performance.now();
  const response = await fetch(`${api.url}${FORECAST_PATH(seed.accountId)}?${query}`, {
    headers: { authorization: `Bearer ${api.token}` },
  });
  const body = await response.arrayBuffer();
  const ms = performance.now() - started;
  const text = new TextDecoder().decode(body);
  if (response.status !== 200)
    throw new Error(`GET ${FORECAST_PATH("{id}")} answered ${response.status}: ${text.slice(0, 500)}`);
  return { ms, bytes: body.byteLength, until, forecast: JSON.parse(text) as Forecast };
}

/**
 * What a sane forecast of the seeded account holds: every budget (fill-ups included), a year of
 * events, none short (Unallocated holds far more than a year asks for), Unallocated never negative.
 */
function forecastProblems(run: ForecastRun, seed: FundingAccount, budgetCount: number): string[] {
  const { forecast } = run;
  const problems: string[] = [];
  const expectedBudgets = budgetCount + seed.mix.fillups;
  if (forecast.bank_account !== seed.accountId || forecast.from !== seed.asOf || forecast.until !== run.until)
    problems.push(
      `the forecast answered account ${forecast.bank_account} from ${forecast.from} until ${forecast.until}, ` +
        `asked ${seed.accountId} from ${seed.asOf} until ${run.until}`,
    );
  if (forecast.budgets.length !== expectedBudgets)
    problems.push(
      `the forecast holds ${forecast.budgets.length} budgets, the account ${expectedBudgets} (fill-ups included)`,
    );
  const kinds = eventKinds(forecast);
  if (kinds.fund === 0 || kinds.recur === 0 || kinds.item !== 0)
    problems.push(
      `the forecast's events are ${JSON.stringify(kinds)}: a year of fund and recur events expected`,
    );
  const partial = forecast.events.filter((event) => event.status !== "complete").length;
  const shortBudgets = forecast.budgets.filter((budget) => budget.partial_events > 0).length;
  if (partial > 0 || shortBudgets > 0)
    problems.push(
      `${partial} forecast events are not complete (${shortBudgets} budgets with partial events) although ` +
        `Unallocated holds ${OPENING_BALANCE}`,
    );
  if (forecast.unallocated.first_negative !== null)
    problems.push(`the forecast's Unallocated goes negative on ${forecast.unallocated.first_negative}`);
  const perBudget = forecast.budgets.reduce((sum, budget) => sum + budget.events, 0);
  if (perBudget !== forecast.events.length)
    problems.push(
      `the forecast's budgets count ${perBudget} events, its event list holds ${forecast.events.length}`,
    );
  const lastPoint = forecast.series.at(-1);
  if (forecast.series.length < 12 || lastPoint?.date !== run.until)
    problems.push(
      `the monthly series holds ${forecast.series.length} points ending ${lastPoint?.date}: 13 ending ${run.until} expected`,
    );
  return problems;
}

/** forecastAccount in this process on the counting connection: the use case without HTTP and JSON. */
async function forecastCounted(
  counting: CountingDatabase,
  actor: Actor,
  seed: FundingAccount,
  until: string,
): Promise<ForecastInProcess> {
  counting.reset();
  const start = counting.sample();
  const forecast = await forecastAccount(asUser(counting.db, actor), {
    id: seed.accountId,
    until,
    interval: "month",
  });
  const end = counting.sample();
  return {
    ms: end.at - start.at,
    statements: counting.sent.length,
    spent: spentBetween(start, end, counting.sent.length),
    events: forecast.events.length,
  };
}

function eventKinds(forecast: Forecast) {
  const kinds = { fund: 0, recur: 0, item: 0 };
  for (const event of forecast.events) kinds[event.kind] += 1;
  return kinds;
}

async function runCounted(
  counting: CountingDatabase,
  actor: Actor,
  seed: FundingAccount,
): Promise<CountedRun> {
  counting.reset();
  const start = counting.sample();
  const result = await runFunding(asUser(counting.db, actor), { id: seed.accountId, as_of: seed.asOf });
  const end = counting.sample();
  return { ms: end.at - start.at, result, statements: [...counting.sent], start, end };
}

const occurrencesOf = (result: FundingRunResult) => result.occurrences_completed + result.occurrences_partial;

interface Rows {
  transfers: number;
  occurrences: number;
  /** Occurrences that moved money. */
  moving: number;
  /** Occurrences that asked for nothing, by the budget type and event kind they belong to. */
  idle: Record<BudgetType, number>;
}

async function rowsOf(db: Database, accountId: string): Promise<Rows> {
  const [transfers] = (await db.execute(sql`
    select count(*)::int as n from internal_transactions where bank_account_id = ${accountId}`)) as unknown as {
    n: number;
  }[];
  const groups = (await db.execute(sql`
    select b.budget_type as type, count(*)::int as n, (count(*) filter (where o.moved_amount > 0))::int as moving
    from funding_occurrences o join budgets b on b.id = o.budget_id
    where o.bank_account_id = ${accountId}
    group by b.budget_type`)) as unknown as { type: BudgetType; n: number; moving: number }[];
  const rows: Rows = {
    transfers: transfers?.n ?? 0,
    occurrences: 0,
    moving: 0,
    idle: {
      [BUDGET_TYPE.fillup]: 0,
      [BUDGET_TYPE.recurring]: 0,
      [BUDGET_TYPE.capped]: 0,
      [BUDGET_TYPE.goal]: 0,
    },
  };
  for (const group of groups) {
    rows.occurrences += group.n;
    rows.moving += group.moving;
    rows.idle[group.type] += group.n - group.moving;
  }
  return rows;
}

/*
 * Where an in-process run's time goes. Statements are sent one after another, each awaited, so the
 * time from one statement's send to the next's is that statement's round trips plus the JavaScript
 * that runs before the next one is sent: the in-memory plan runs after the open occurrences are
 * read, and each multi-row statement is built after the previous one returns. Beside the wall time,
 * the CPU time this process and the PostgreSQL backend spent in the same span.
 */
const PHASES: { name: string; matches: (text: string) => boolean }[] = [
  {
    name: "begin, lock the account, read its time zone",
    matches: (t) => /^begin/i.test(t) || /^select .* from "bank_accounts"/s.test(t),
  },
  { name: "lock and read the budgets", matches: (t) => /^select .* from "budgets"/s.test(t) },
  {
    name: "read open occurrences, then plan in memory",
    matches: (t) => /^select .* from "funding_occurrences"/s.test(t),
  },
  { name: "insert transfers", matches: (t) => t.startsWith('insert into "internal_transactions"') },
  { name: "update budgets", matches: (t) => /^update budgets/.test(t) },
  { name: "insert occurrences", matches: (t) => t.startsWith('insert into "funding_occurrences"') },
  { name: "top up open occurrences", matches: (t) => /^update funding_occurrences/.test(t) },
  { name: "refresh running-balance snapshots", matches: (t) => /^with events as/.test(t) },
  { name: "commit", matches: (t) => /^commit/i.test(t) },
];

interface Spent {
  statements: number;
  wallMs: number;
  benchCpuMs: number;
  serverCpuMs: number | null;
}

const spentBetween = (from: Sample, to: Sample, statements: number): Spent => ({
  statements,
  wallMs: to.at - from.at,
  benchCpuMs: to.benchCpuMs - from.benchCpuMs,
  serverCpuMs:
    from.serverCpuMs === null || to.serverCpuMs === null ? null : to.serverCpuMs - from.serverCpuMs,
});

function addSpent(total: Spent, part: Spent): Spent {
  return {
    statements: total.statements + part.statements,
    wallMs: total.wallMs + part.wallMs,
    benchCpuMs: total.benchCpuMs + part.benchCpuMs,
    serverCpuMs:
      total.serverCpuMs === null || part.serverCpuMs === null ? null : total.serverCpuMs + part.serverCpuMs,
  };
}

function phasesOf(run: CountedRun) {
  const totals = new Map<string, Spent>();
  run.statements.forEach((statement, index) => {
    const text = statement.text.trim();
    const name = PHASES.find((phase) => phase.matches(text))?.name ?? `other (${text.slice(0, 40)})`;
    const part = spentBetween(statement, run.statements[index + 1] ?? run.end, 1);
    const total = totals.get(name);
    totals.set(name, total ? addSpent(total, part) : part);
  });
  return totals;
}

/** "8,029 ms (bench CPU 7,900, PostgreSQL CPU 10)". */
const describeSpent = (spent: Spent) =>
  `${ms(spent.wallMs)} ms (CPU: bench ${ms(spent.benchCpuMs)}` +
  `${spent.serverCpuMs === null ? "" : `, PostgreSQL ${ms(spent.serverCpuMs)}`})`;

const ms = (value: number) => Math.round(value).toLocaleString("en");
const count = (value: number) => value.toLocaleString("en");
/** "12" or "12–14" when the rounds differ. */
const spread = (values: number[]) => {
  const low = Math.min(...values);
  const high = Math.max(...values);
  return low === high ? count(low) : `${count(low)}–${count(high)}`;
};
const verdict = (value: number) => (value < TARGET_MS ? "met" : "MISSED");
const forecastVerdict = (value: number) => (value < FORECAST_TARGET_MS ? "met" : "MISSED");
const ratioVerdict = (value: number) => (value <= FORECAST_RATIO_TARGET ? "met" : "MISSED");
/** The forecast's time over the same round's catch-up over HTTP. */
const forecastRatio = (round: Round) => round.forecast.run.ms / round.http.first.ms;
/** "8.4" (10^6 bytes). */
const megabytes = (bytes: number) => (bytes / 1e6).toFixed(1);

/** The summary's figures: the medians of the report's table. */
function fundingFigures(rounds: Round[], context: FundingBenchContext): Figure[] {
  const size = `${count(context.budgets)} budgets`;
  const figure = (
    id: string,
    scenario: string,
    values: number[],
    threshold: Figure["threshold"],
    note: string | null,
  ): Figure => ({
    id,
    group: "funding",
    scenario,
    value: median(values),
    unit: "ms",
    detail: null,
    threshold,
    note,
  });
  const target = { comparison: "<", value: TARGET_MS } as const;
  const rerun = "the idempotent run right after (nothing due); shown for its cost, no target was set";
  return [
    figure(
      "funding.catch-up.http",
      `funding: run-funding over HTTP, a year's catch-up of ${size}`,
      rounds.map((r) => r.http.first.ms),
      target,
      null,
    ),
    figure(
      "funding.catch-up.in-process",
      `funding: runFunding in process, a year's catch-up of ${size}`,
      rounds.map((r) => r.inProcess.first.ms),
      target,
      null,
    ),
    figure(
      "funding.rerun.http",
      "funding: run-funding over HTTP again at once",
      rounds.map((r) => r.http.second.ms),
      null,
      rerun,
    ),
    figure(
      "funding.rerun.in-process",
      "funding: runFunding in process again at once",
      rounds.map((r) => r.inProcess.second.ms),
      null,
      rerun,
    ),
    figure(
      "funding.forecast.http",
      `funding: GET forecast over HTTP, a year ahead of ${size}`,
      rounds.map((r) => r.forecast.run.ms),
      { comparison: "<", value: FORECAST_TARGET_MS },
      null,
    ),
    {
      id: "funding.forecast.ratio",
      group: "funding",
      scenario: "funding: the forecast's year ahead over the same round's catch-up, both over HTTP",
      value: median(rounds.map(forecastRatio)),
      unit: "ratio",
      detail: `${ms(median(rounds.map((r) => r.forecast.run.ms)))} / ${ms(median(rounds.map((r) => r.http.first.ms)))} ms`,
      threshold: { comparison: "<=", value: FORECAST_RATIO_TARGET },
      note: null,
    },
  ];
}

function formatFundingReport(rounds: Round[], context: FundingBenchContext): string {
  const [sample] = rounds;
  if (!sample) return "";
  const { mix } = sample.seed;
  const httpFirst = median(rounds.map((r) => r.http.first.ms));
  const httpSecond = median(rounds.map((r) => r.http.second.ms));
  const localFirst = median(rounds.map((r) => r.inProcess.first.ms));
  const localSecond = median(rounds.map((r) => r.inProcess.second.ms));
  const statements = (pick: (r: Round) => CountedRun) => spread(rounds.map((r) => pick(r).statements.length));
  const exchanges = (pick: (r: Round) => CountedRun) =>
    spread(rounds.map((r) => exchangesOf(pick(r).statements)));
  const first = (r: Round) => r.inProcess.first;
  const second = (r: Round) => r.inProcess.second;
  const forecastMs = median(rounds.map((r) => r.forecast.run.ms));
  const ratio = median(rounds.map(forecastRatio));
  const answers = rounds.map((r) => r.forecast.run.forecast);
  const kinds = answers.map(eventKinds);
  const byForecast = [...rounds].sort((a, b) => a.forecast.run.ms - b.forecast.run.ms);
  const forecastMedian = (byForecast[Math.floor(byForecast.length / 2)] ?? sample).forecast;

  // The profile of the round whose in-process first run is the median one.
  const byLocal = [...rounds].sort((a, b) => a.inProcess.first.ms - b.inProcess.first.ms);
  const profiled = byLocal[Math.floor(byLocal.length / 2)] ?? sample;
  const profiledRun = profiled.inProcess.first;
  const phasesText = (run: CountedRun) =>
    [...phasesOf(run)]
      .map(
        ([name, spent]) =>
          `${name}${spent.statements > 1 ? ` (${spent.statements} statements)` : ""} ${describeSpent(spent)}`,
      )
      .join("; ");
  const phases = phasesText(profiledRun);
  const whole = spentBetween(profiledRun.start, profiledRun.end, profiledRun.statements.length);

  const lines = [
    `POST ${RUN_PATH("{id}")} with as_of = the account's today (${sample.seed.asOf}), one account holding ` +
      `${count(context.budgets)} budgets — ${mix.fixedGoals} fixed-amount Goals, ${mix.dateGoals} target-date Goals ` +
      `(a year out), ${mix.capped} Capped, ${mix.recurring} Recurring (monthly refresh) with their ${mix.fillups} fill-up ` +
      `goals; funding weekly, every two weeks or monthly — schedules counting from ${sample.seed.schedulesFrom}, ` +
      `${OPENING_BALANCE} in Unallocated; median of ${rounds.length} rounds, each on two freshly seeded accounts ` +
      `(and a third for the forecast: the same mix, schedules counting from its today); ${context.environment}`,
    "",
    "| scenario | time (ms) | statements | round trips | target | result |",
    "|---|---:|---:|---:|---|---|",
    `| run-funding over HTTP (real API process), a year's catch-up | ${ms(httpFirst)} | — | — | < 3 s | ${verdict(httpFirst)} |`,
    `| run-funding over HTTP, run again at once (nothing due) | ${ms(httpSecond)} | — | — | | |`,
    `| runFunding in the bench process, a year's catch-up | ${ms(localFirst)} | ${statements(first)} | ${exchanges(first)} | < 3 s | ${verdict(localFirst)} |`,
    `| runFunding in the bench process, run again at once (nothing due) | ${ms(localSecond)} | ${statements(second)} | ${exchanges(second)} | | |`,
    `| GET ${FORECAST_PATH("{id}")}?until=today + ${FORECAST_DAYS} days&interval=month over HTTP, a year ahead of the same mix | ` +
      `${ms(forecastMs)} | — | — | < 1 s, and ≤ ${FORECAST_RATIO_TARGET.toFixed(2)} × the catch-up over HTTP | ` +
      `${forecastVerdict(forecastMs)}; ${ratio.toFixed(2)} × (${ratioVerdict(ratio)}) |`,
    "",
    `- Each first run: ${spread(rounds.map((r) => r.http.first.result.transfers))} transfers and ` +
      `${spread(rounds.map((r) => occurrencesOf(r.http.first.result)))} occurrences ` +
      `(${spread(rounds.map((r) => r.http.first.result.occurrences_partial))} partial; ` +
      `${spread(rounds.map((r) => r.rows.moving))} moved money; the others asked for nothing — ` +
      `${spread(rounds.map((r) => r.rows.idle[BUDGET_TYPE.fillup]))} fill-up events with the fill-up already full, ` +
      `${spread(rounds.map((r) => r.rows.idle[BUDGET_TYPE.recurring]))} refreshes of a budget already at its target, ` +
      `${spread(rounds.map((r) => r.rows.idle[BUDGET_TYPE.capped]))} Capped events at the cap, ` +
      `${spread(rounds.map((r) => r.rows.idle[BUDGET_TYPE.goal]))} Goal events), the same over HTTP and in process; ` +
      "every second run moved nothing; " +
      `verifyLedger found no problem on any of the ${rounds.length * 2} accounts.`,
    `- First run over HTTP, per round: ${rounds.map((r) => ms(r.http.first.ms)).join(" / ")} ms ` +
      `(target < 3 s: ${verdict(httpFirst)}); in process: ${rounds.map((r) => ms(r.inProcess.first.ms)).join(" / ")} ms.`,
    "- Statements are counted in the bench process through postgres.js's per-statement `debug` hook " +
      "(BEGIN and COMMIT included); round trips are network exchanges: drizzle sends statements " +
      "unprepared inside a transaction, and postgres.js then takes two for one with parameters " +
      "(Parse/Describe, then Bind/Execute) and one for one without. The HTTP runs send the same engine " +
      "statements in the API process, plus the request's session lookup and throttle upsert.",
    `- Where the in-process first run's time goes (median round): ${describeSpent(whole)} — CPU of this ` +
      "process (all its threads, garbage collection included) and of the connection's PostgreSQL backend, " +
      "which a busy machine does not inflate as it does the wall time; by statement, each from its send to " +
      `the next one's (so including the JavaScript that builds the next): ${phases}.`,
    `- The second run of that round, in process: ${phasesText(profiled.inProcess.second)}.`,
    `- Forecast over HTTP, per round: ${rounds.map((r) => ms(r.forecast.run.ms)).join(" / ")} ms ` +
      `(target < 1 s: ${forecastVerdict(forecastMs)}); over that round's catch-up over HTTP: ` +
      `${rounds.map((r) => forecastRatio(r).toFixed(2)).join(" / ")} (median ${ratio.toFixed(2)}, target ≤ ` +
      `${FORECAST_RATIO_TARGET.toFixed(2)}: ${ratioVerdict(ratio)}). Each answer: ` +
      `${spread(answers.map((a) => a.events.length))} events (${spread(kinds.map((k) => k.fund))} fund, ` +
      `${spread(kinds.map((k) => k.recur))} recur; every one complete — the catch-up's year made ` +
      `${spread(rounds.map((r) => occurrencesOf(r.http.first.result)))} occurrences), ` +
      `${spread(answers.map((a) => a.budgets.length))} budgets (fill-ups included), ` +
      `${spread(answers.map((a) => a.series.length))} series points, ` +
      `${rounds.map((r) => megabytes(r.forecast.run.bytes)).join(" / ")} MB of JSON ` +
      `(${spread(rounds.map((r) => r.forecast.run.bytes))} bytes); Unallocated never negative; the account ` +
      "held no more transfers or occurrences after it than before.",
    `- The same forecast through forecastAccount in the bench process (after the HTTP one, on the counting ` +
      `connection; no HTTP, no JSON), per round: ${rounds.map((r) => ms(r.forecast.inProcess.ms)).join(" / ")} ms, ` +
      `${spread(rounds.map((r) => r.forecast.inProcess.statements))} statements; median round ` +
      `${describeSpent(forecastMedian.inProcess.spent)}.`,
    "",
  ];
  return lines.join("\n");
}
