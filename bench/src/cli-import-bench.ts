import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "@allot/cli/test/testing/run-cli";
import { createDatabase } from "@allot/db/create-database";
import { verifyLedger } from "@allot/domain/ledger/verify-ledger";
import type { Figure } from "./figures";
import { login, postJson } from "./seed";

/*
 * `allot import csv` end to end: the real CLI process reads a 50,000-row bank export (sizes.ts), checks it
 * whole, and sends it through the SDK to the real API process in syncs of at most 5,000 rows
 * (each previewed by a dry run, as the CLI does); then the same file again, which inserts nothing.
 */

/** No issue or decision set a target for the CLI import: the summary says so. */
const NO_TARGET =
  "no target was set for the CLI import (docs/decisions/0011-cli-importer.md and the README give none; " +
  "0011 recorded 23 s for a 50,000-row file on the embedded database when the importer landed)";
const MAP = "date=Date,amount=Amount,description=Description,balance=Balance";

export interface CliImportBenchContext {
  databaseUrl: string;
  apiUrl: string;
  bankId: string;
  owner: { email: string };
  /** Rows of the exported file. */
  rows: number;
  environment: string;
}

interface ImportOutput {
  syncs: number;
  inserted_posted: number;
  skipped_posted: number;
  balance_checked: boolean;
  balance_mismatch: string | null;
}

export async function benchCliImport(
  context: CliImportBenchContext,
): Promise<{ report: string; figures: Figure[]; problems: string[] }> {
  const problems: string[] = [];
  const { rows } = context;
  const folder = await mkdtemp(join(tmpdir(), "allot-bench-csv-"));
  try {
    const token = await login(context.apiUrl, context.owner.email);
    const account = (await postJson(
      context.apiUrl,
      "/api/v1/bank-accounts/",
      token,
      { name: "CLI import bench", bank: context.bankId },
      201,
    )) as { id: string };
    const key = (await postJson(
      context.apiUrl,
      "/api/v1/users/me/api-keys/",
      token,
      { name: "bench" },
      201,
    )) as {
      key: string;
    };
    const file = join(folder, "export.csv");
    await writeFile(file, csvExport(rows));

    const run = () =>
      timedImport(
        ["import", "csv", file, "--account", account.id, "--map", MAP, "--json"],
        key.key,
        context.apiUrl,
        folder,
      );
    const first = await run();
    const again = await run();
    console.error(
      `CLI import: first ${ms(first.ms)} ms (${first.output.syncs} syncs), again ${ms(again.ms)} ms`,
    );

    if (
      first.output.inserted_posted !== rows ||
      first.output.balance_mismatch !== null ||
      !first.output.balance_checked
    )
      problems.push(`first CLI import: ${JSON.stringify(first.output)}`);
    if (again.output.inserted_posted !== 0 || again.output.skipped_posted < rows)
      problems.push(`second CLI import: ${JSON.stringify(again.output)}`);
    const handle = await createDatabase({ url: context.databaseUrl, maxConnections: 1 });
    try {
      const ledger = await verifyLedger(handle.db, account.id);
      if (ledger.length > 0) problems.push(`CLI import ledger: ${ledger.slice(0, 5).join("; ")}`);
    } finally {
      await handle.close();
    }
    const figure = (id: string, scenario: string, value: number): Figure => ({
      id,
      group: "import",
      scenario,
      value,
      unit: "ms",
      detail: null,
      threshold: null,
      note: NO_TARGET,
    });
    return {
      report: formatReport(first, again, context),
      figures: [
        figure(
          "import.cli-csv.first",
          `import: allot import csv, ${ms(rows)}-row file, spawn to exit`,
          first.ms,
        ),
        figure("import.cli-csv.again", "import: allot import csv, the same file again", again.ms),
      ],
      problems,
    };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * A bank's export of `rows` rows, oldest first as many banks write it: 50 a day from 2023-06-01, unique
 * descriptions, amounts in cents summed exactly into the running balance column.
 */
function csvExport(rows: number): string {
  const lines = ["Date,Description,Amount,Balance"];
  let balance = 0n;
  const start = Date.UTC(2023, 5, 1);
  for (let i = 0; i < rows; i++) {
    const date = new Date(start + Math.floor(i / 50) * 86_400_000).toISOString().slice(0, 10);
    const cents = BigInt(((i * 7919) % 20000) - 12000 || 100);
    balance += cents;
    lines.push(`${date},CARD PURCHASE ${i},${money(cents)},${money(balance)}`);
  }
  return `${lines.join("\n")}\n`;
}

const money = (cents: bigint) => {
  const digits = (cents < 0n ? -cents : cents).toString().padStart(3, "0");
  return `${cents < 0n ? "-" : ""}${digits.slice(0, -2)}.${digits.slice(-2)}`;
};

/** The real `allot` (as `pnpm cli` runs it), authenticated by an API key, timed from spawn to exit. */
async function timedImport(args: string[], apiKey: string, baseUrl: string, home: string) {
  const started = performance.now();
  const run = await runCli(args, { env: { HOME: home, ALLOT_BASE_URL: baseUrl, ALLOT_API_KEY: apiKey } });
  const ms = performance.now() - started;
  if (run.code !== 0)
    throw new Error(`allot ${args.join(" ")} exited ${run.code}: ${run.stderr.slice(0, 1000)}`);
  return { ms, output: run.json<ImportOutput>() };
}

const ms = (value: number) => Math.round(value).toLocaleString("en");

function formatReport(
  first: { ms: number; output: ImportOutput },
  again: { ms: number; output: ImportOutput },
  context: CliImportBenchContext,
): string {
  return [
    `\`allot import csv\` of a ${ms(context.rows)}-row export (50 rows a day, a balance column) into a new account: the ` +
      `real CLI process through the SDK to the real API process, from spawn to exit; ${context.environment}`,
    "",
    "| scenario | time (ms) | syncs | inserted | skipped |",
    "|---|---:|---:|---:|---:|",
    `| first import | ${ms(first.ms)} | ${first.output.syncs} | ${ms(first.output.inserted_posted)} | ${ms(first.output.skipped_posted)} |`,
    `| the same file again | ${ms(again.ms)} | ${again.output.syncs} | ${ms(again.output.inserted_posted)} | ${ms(again.output.skipped_posted)} |`,
    "",
    "- The file's closing balance matched the account's; verifyLedger found no problem.",
    "",
  ].join("\n");
}
