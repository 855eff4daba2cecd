import type { ScenarioGroup } from "./env";

/*
 * One measured figure of a scenario, with the target the issue that asked for it set (or why it has
 * none). The summary table, the JSON report and the smoke slice's checks are all built from these.
 */

type Comparison = "<" | "<=" | ">=";

/** Times, ratios of two measurements, rates (deliveries a second), and bytes (MB: 10^6 bytes). */
export const FIGURE_UNITS = ["ms", "ratio", "per second", "MB", "MB/s"] as const;
type FigureUnit = (typeof FIGURE_UNITS)[number];

export interface Threshold {
  comparison: Comparison;
  value: number;
}

export interface Figure {
  /** Stable across runs and sizes: `import.sync-scrape.first`. */
  id: string;
  group: ScenarioGroup;
  /** For people: what was measured, at which size. */
  scenario: string;
  value: number;
  unit: FigureUnit;
  /** The measurements a ratio comes from: "149 / 218 req/s". */
  detail: string | null;
  threshold: Threshold | null;
  /** Why there is no threshold (when there is none). */
  note: string | null;
}

export function isMet(figure: Pick<Figure, "value" | "threshold">): boolean | null {
  const { threshold, value } = figure;
  if (!threshold) return null;
  switch (threshold.comparison) {
    case "<":
      return value < threshold.value;
    case "<=":
      return value <= threshold.value;
    case ">=":
      return value >= threshold.value;
  }
}

/** What makes a figure meaningless (a ratio over nothing, a negative time), or null when it is sane. */
export function insanityOf(figure: Figure): string | null {
  if (!Number.isFinite(figure.value)) return `${figure.id}: not a number (${figure.value})`;
  if (figure.value < 0) return `${figure.id}: negative (${figure.value})`;
  if (figure.unit === "ratio" && figure.value === 0) return `${figure.id}: a ratio of 0`;
  if ((figure.unit === "per second" || figure.unit === "MB/s") && figure.value === 0)
    return `${figure.id}: a rate of 0`;
  return null;
}

/** "2,837 ms", "0.68", "412/s", "48.2 MB", "96.5 MB/s". */
export function formatValue(figure: Pick<Figure, "value" | "unit">): string {
  if (!Number.isFinite(figure.value)) return String(figure.value);
  switch (figure.unit) {
    case "ms":
      return `${Math.round(figure.value).toLocaleString("en")} ms`;
    case "ratio":
      return figure.value.toFixed(2);
    case "per second":
      return `${Math.round(figure.value).toLocaleString("en")}/s`;
    case "MB":
    case "MB/s":
      return `${figure.value.toFixed(1)} ${figure.unit}`;
  }
}

/** "< 3 s", "≥ 0.50", "≥ 100/s", "< 150 MB". */
export function formatThreshold(threshold: Threshold, unit: Figure["unit"]): string {
  const sign = { "<": "<", "<=": "≤", ">=": "≥" }[threshold.comparison];
  const value =
    unit === "ms"
      ? threshold.value % 1000 === 0
        ? `${threshold.value / 1000} s`
        : `${threshold.value} ms`
      : unit === "per second"
        ? `${threshold.value}/s`
        : unit === "MB" || unit === "MB/s"
          ? `${threshold.value} ${unit}`
          : threshold.value.toFixed(2);
  return `${sign} ${value}`;
}
