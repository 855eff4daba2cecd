import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod";
import { SCENARIO_GROUPS, type ScenarioGroup } from "./env";
import { FIGURE_UNITS, type Figure, formatThreshold, formatValue, isMet } from "./figures";

/*
 * The report: results/latest.md (one summary table of every scenario, then each group's detailed
 * section) and results/latest.json (the same figures, with the run each comes from). A run of some
 * groups (`pnpm bench funding`) replaces those groups' figures and sections and keeps the others',
 * and each figure names the run it comes from.
 */

const GroupSchema = z.enum(SCENARIO_GROUPS);
const LoadAverageSchema = z.array(z.number());

const RunSchema = z.object({
  /** When the run started, ISO; figures refer to their run by it. */
  id: z.string(),
  finished: z.string(),
  command: z.string(),
  groups: z.array(GroupSchema),
  /** The checkout's HEAD and whether tracked files differed from it (other work in progress). */
  commit: z.string().nullable(),
  uncommittedChanges: z.boolean().nullable(),
  postgres: z.string(),
  node: z.string(),
  cpus: z.number(),
  /** os.loadavg() (1, 5 and 15 minutes) at the start, at each group's start and at the end. */
  loadAverage: z.object({
    start: LoadAverageSchema,
    groups: z.partialRecord(GroupSchema, LoadAverageSchema),
    end: LoadAverageSchema,
  }),
  /** The sizes and load the run used. */
  settings: z.record(z.string(), z.unknown()),
});
export type RunRecord = z.infer<typeof RunSchema>;

const ScenarioSchema = z.object({
  id: z.string(),
  group: GroupSchema,
  scenario: z.string(),
  value: z.number(),
  unit: z.enum(FIGURE_UNITS),
  detail: z.string().nullable(),
  target: z.number().nullable(),
  comparison: z.enum(["<", "<=", ">="]).nullable(),
  met: z.boolean().nullable(),
  note: z.string().nullable(),
  run: z.string(),
});
type ScenarioRecord = z.infer<typeof ScenarioSchema>;

const ResultsSchema = z.object({
  format: z.literal(1),
  updated: z.string(),
  runs: z.array(RunSchema),
  scenarios: z.array(ScenarioSchema),
});
type Results = z.infer<typeof ResultsSchema>;

const toRecord = (figure: Figure, run: string): ScenarioRecord => ({
  id: figure.id,
  group: figure.group,
  scenario: figure.scenario,
  // Beyond these digits a figure is noise.
  value:
    figure.unit === "ratio" ? Math.round(figure.value * 1000) / 1000 : Math.round(figure.value * 10) / 10,
  unit: figure.unit,
  detail: figure.detail,
  target: figure.threshold?.value ?? null,
  comparison: figure.threshold?.comparison ?? null,
  met: isMet(figure),
  note: figure.note,
  run,
});

const HEADINGS: Record<ScenarioGroup, string> = {
  lists: "## lists: list endpoints beside a bare floor",
  funding: "## funding: a year's catch-up",
  import: "## import: sync-scrape and the CLI's CSV import",
  webhooks: "## webhooks: delivery throughput and commit-to-arrival delay",
  changes: "## changes: the change feed's full sync and delta",
  receipts: "## receipts: 5 MB uploads and downloads, and the API's memory under concurrent uploads",
  cli: "## cli: `allot` start-up, built and from source",
};
const MARKER = /^<!-- bench: ([a-z]+) -->\n/m;

/**
 * Merges this run into both files: its groups' figures and sections replace theirs, the rest stay.
 * Resolves to the summary (markdown).
 */
export async function writeResults(options: {
  markdownFile: string;
  jsonFile: string;
  run: RunRecord;
  figures: Figure[];
  sections: Partial<Record<ScenarioGroup, string>>;
}) {
  const { run } = options;
  const ran = (group: ScenarioGroup) => run.groups.includes(group);
  const previous = await readResults(options.jsonFile);
  const fresh = options.figures.map((figure) => toRecord(figure, run.id));
  const scenarios = SCENARIO_GROUPS.flatMap((group) =>
    ran(group) ? fresh.filter((s) => s.group === group) : previous.scenarios.filter((s) => s.group === group),
  );
  const runs = [...previous.runs.filter((r) => r.id !== run.id), run].filter((r) =>
    scenarios.some((s) => s.run === r.id),
  );
  const results: Results = { format: 1, updated: run.finished, runs, scenarios };

  const kept = parseSections(await readFile(options.markdownFile, "utf8").catch(() => ""));
  const sections = SCENARIO_GROUPS.flatMap((group) => {
    const body = options.sections[group] ?? kept[group];
    return body ? [`<!-- bench: ${group} -->\n${HEADINGS[group]}\n\n${body.trim()}\n`] : [];
  });
  const withoutFigures = SCENARIO_GROUPS.filter(
    (group) => kept[group] && !options.sections[group] && !scenarios.some((s) => s.group === group),
  );
  const summary = formatSummary(results, withoutFigures);
  const markdown = [`<!-- bench: summary -->\n${summary}`, ...sections].join("\n");

  await mkdir(dirname(options.markdownFile), { recursive: true });
  await writeFile(options.markdownFile, markdown);
  await writeFile(options.jsonFile, `${formatJson(results)}\n`);
  return summary;
}

const LINE_WIDTH = 110;

/**
 * JSON as Biome formats it (the repository's `pnpm check` reads this file too): objects one member a
 * line, arrays of plain values on one line when they fit within the line width.
 */
function formatJson(value: unknown, indent = "", before = 0): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    if (value.every((item) => item === null || typeof item !== "object")) {
      const line = `[${value.map((item) => JSON.stringify(item)).join(", ")}]`;
      // The comma that may follow counts.
      if (before + line.length + 1 <= LINE_WIDTH) return line;
    }
    return `[\n${value.map((item) => inner + formatJson(item, inner, inner.length)).join(",\n")}\n${indent}]`;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    if (entries.length === 0) return "{}";
    const members = entries.map(([key, item]) => {
      const head = `${inner}${JSON.stringify(key)}: `;
      return head + formatJson(item, inner, head.length);
    });
    return `{\n${members.join(",\n")}\n${indent}}`;
  }
  return JSON.stringify(value);
}

async function readResults(file: string): Promise<Results> {
  const empty: Results = { format: 1, updated: "", runs: [], scenarios: [] };
  const text = await readFile(file, "utf8").catch(() => null);
  if (text === null) return empty;
  const parsed = ResultsSchema.safeParse(JSON.parse(text));
  if (parsed.success) return parsed.data;
  console.error(
    `${file} is not a report this bench wrote; starting it afresh:\n${z.prettifyError(parsed.error)}`,
  );
  return empty;
}

/** Each group's section as last written (its heading taken off). A file from before sections holds the lists only. */
function parseSections(text: string): Partial<Record<ScenarioGroup, string>> {
  if (!MARKER.test(text)) return text.trim() ? { lists: text } : {};
  const parts = text.split(new RegExp(MARKER.source, "m"));
  const sections: Partial<Record<ScenarioGroup, string>> = {};
  for (let i = 1; i + 1 < parts.length; i += 2) {
    const group = GroupSchema.safeParse(parts[i]);
    const body = parts[i + 1];
    if (group.success && body !== undefined) {
      const heading = HEADINGS[group.data];
      sections[group.data] = body.startsWith(heading) ? body.slice(heading.length).trimStart() : body;
    }
  }
  return sections;
}

/** "2026-11-23 18:30 UTC". */
const runLabel = (id: string) => `${id.slice(0, 10)} ${id.slice(11, 16)} UTC`;
const loads = (values: number[] | undefined) => (values?.[0] ?? Number.NaN).toFixed(2);

function formatSummary(results: Results, withoutFigures: ScenarioGroup[]): string {
  const notes: string[] = [];
  const noteNumber = (note: string) => {
    if (!notes.includes(note)) notes.push(note);
    return notes.indexOf(note) + 1;
  };
  const rows = results.scenarios.map((s) => {
    const measured = `${formatValue(s)}${s.detail ? ` (${s.detail})` : ""}`;
    const target =
      s.comparison === null || s.target === null
        ? `none${s.note ? ` (note ${noteNumber(s.note)})` : ""}`
        : formatThreshold({ comparison: s.comparison, value: s.target }, s.unit);
    const result = s.met === null ? "—" : s.met ? "met" : "**MISSED**";
    return `| ${s.scenario} | ${measured} | ${target} | ${result} | ${runLabel(s.run)} |`;
  });
  const runs = results.runs.map((run) => {
    const groups = run.groups.map((group) => `${group} ${loads(run.loadAverage.groups[group])}`).join(", ");
    const busiest = Math.max(
      ...[run.loadAverage.start, run.loadAverage.end, ...Object.values(run.loadAverage.groups)].map(
        (values) => values?.[0] ?? 0,
      ),
    );
    const busy =
      busiest > run.cpus
        ? ` The machine was busy (load above its ${run.cpus} CPUs, other work running): times are longer and ` +
          "throughputs lower than on a quiet machine."
        : "";
    const commit = run.commit
      ? `commit \`${run.commit.slice(0, 12)}\`${run.uncommittedChanges ? " (the checkout also held uncommitted changes)" : ""}`
      : "commit unknown";
    return (
      `- **${runLabel(run.id)}**, \`${run.command}\` (${run.groups.join(", ")}), ${commit}: ` +
      `PostgreSQL ${run.postgres}, Node ${run.node}, ${run.cpus} CPUs; load average (1 min) ` +
      `${loads(run.loadAverage.start)} at the start; ${groups} as each group began; ${loads(run.loadAverage.end)} at the end.${busy}`
    );
  });
  return [
    "## Summary",
    "",
    "Every scenario of `pnpm bench` on PostgreSQL (unless its row names the embedded PGlite) through the " +
      "real API process, with the target its issue set. `pnpm bench <group>` replaces only that group's rows " +
      "and section; each row names the run it comes from. The sections below give the details. " +
      "Machine-readable: `latest.json`.",
    "",
    "| scenario | measured | target | result | run |",
    "|---|---:|---|---|---|",
    ...rows,
    "",
    "Runs:",
    "",
    ...runs,
    ...withoutFigures.map(
      (group) =>
        `- ${group}: its section below predates the summary; \`pnpm bench ${group}\` puts its figures here.`,
    ),
    ...(notes.length > 0 ? ["", "Notes:", "", ...notes.map((note, i) => `${i + 1}. ${note}`)] : []),
    "",
  ].join("\n");
}

/** The smoke slice's table: what each scenario measured at its tiny size, targets not judged. */
export function formatSmokeSummary(figures: Figure[], problems: string[]): string {
  return [
    "Smoke slice (tiny sizes: the figures only show each scenario ran; no target is checked)",
    "",
    "| scenario | measured |",
    "|---|---:|",
    ...figures.map((f) => `| ${f.scenario} | ${formatValue(f)}${f.detail ? ` (${f.detail})` : ""} |`),
    "",
    problems.length === 0 ? "Every scenario ran and answered sanely." : `${problems.length} problem(s):`,
    ...problems.map((p) => `- ${p}`),
    "",
  ].join("\n");
}
