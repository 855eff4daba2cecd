import { displayWidth } from "./display-width";

/*
 * A line chart of money over days, drawn in text for a terminal: the y axis labelled with the
 * highest and lowest values (and 0.00 when the line crosses it), the x axis with dates, the
 * lowest point marked. Written here rather than taken from npm: asciichart (last published
 * 2020) draws one column per value with no width to fit and labels every row with float-computed
 * figures, and simple-ascii-chart (maintained) needs its width, ticks and labels fought on every
 * series, prints thousands as `1.2k` and scrambles its date axis on a long series; neither marks
 * a point as this needs, nor keeps every printed figure the API's own decimal string.
 */

/** One value of the line: its day and the API's decimal string (`"-12.50"`). */
export interface ChartPoint {
  date: string;
  value: string;
}

export interface LineChartOptions {
  /** The columns the widest line may take (the terminal's width, 80 when not a terminal). */
  width: number;
  /** Rows of the plot when the values differ (a flat line takes one). */
  height?: number;
  /** Box-drawing characters; false: ASCII only (a locale that is not UTF-8). */
  unicode: boolean;
}

interface Glyphs {
  horizontal: string;
  vertical: string;
  /** A dead end of a column's vertical stroke, at its top and at its bottom. */
  topEnd: string;
  bottomEnd: string;
  /** Where the line comes in from the left: at the top of a stroke, at its bottom, in its middle. */
  inTop: string;
  inBottom: string;
  inMiddle: string;
  /** Where it leaves to the right. */
  outTop: string;
  outBottom: string;
  outMiddle: string;
  /** In and out on the same row. */
  throughTop: string;
  throughBottom: string;
  throughMiddle: string;
  zero: string;
  axis: string;
  axisLabel: string;
  corner: string;
  axisX: string;
  tick: string;
  mark: string;
}

const UNICODE: Glyphs = {
  horizontal: "─",
  vertical: "│",
  topEnd: "╷",
  bottomEnd: "╵",
  inTop: "╮",
  inBottom: "╯",
  inMiddle: "┤",
  outTop: "╭",
  outBottom: "╰",
  outMiddle: "├",
  throughTop: "┬",
  throughBottom: "┴",
  throughMiddle: "┼",
  zero: "┈",
  axis: "│",
  axisLabel: "┤",
  corner: "└",
  axisX: "─",
  tick: "┬",
  mark: "●",
};

const ASCII: Glyphs = {
  horizontal: "-",
  vertical: "|",
  topEnd: "|",
  bottomEnd: "|",
  inTop: "+",
  inBottom: "+",
  inMiddle: "+",
  outTop: "+",
  outBottom: "+",
  outMiddle: "+",
  throughTop: "+",
  throughBottom: "+",
  throughMiddle: "+",
  zero: ".",
  axis: "|",
  axisLabel: "+",
  corner: "+",
  axisX: "-",
  tick: "+",
  mark: "*",
};

/** The mark of the lowest point, for a legend that names it. */
export const lowestMark = (unicode: boolean): string => (unicode ? UNICODE : ASCII).mark;

const DEFAULT_HEIGHT = 10;
const DATE_WIDTH = 10;

/** A decimal string as whole cents, exactly: which value is higher never goes through a float. */
const cents = (value: string): bigint => {
  const [whole = "0", fraction = ""] = value.replace(/^-/, "").split(".");
  const magnitude = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, "0").slice(0, 2));
  return value.startsWith("-") ? -magnitude : magnitude;
};

/**
 * The points as a line chart, each line at most `width` columns (given room for the labels and
 * two columns of plot), ending in a newline. More days than columns: each column draws the range
 * its days cover, so no low or high day is lost; fewer: each day takes several columns.
 */
export function renderLineChart(points: readonly ChartPoint[], options: LineChartOptions): string {
  const first = points[0];
  if (first === undefined) return "";
  const glyphs = options.unicode ? UNICODE : ASCII;
  const amounts = points.map((point) => cents(point.value));
  let lowest = 0;
  let highest = 0;
  amounts.forEach((amount, i) => {
    if (amount < (amounts[lowest] as bigint)) lowest = i;
    if (amount > (amounts[highest] as bigint)) highest = i;
  });
  const min = amounts[lowest] as bigint;
  const max = amounts[highest] as bigint;
  const crossesZero = min < 0n && max > 0n;
  const rows = min === max ? 1 : Math.max(crossesZero ? 3 : 2, options.height ?? DEFAULT_HEIGHT);

  // A float only places a value on a row; every figure printed is one of the API's strings.
  const span = Number(max - min);
  const rawRow = (amount: bigint) =>
    span === 0 ? 0 : Math.round((Number(max - amount) / span) * (rows - 1));
  // Crossing zero: the zero line keeps a row of its own, every value below zero is drawn under it
  // and every value above it over it, whatever the rounding.
  const zeroRow = crossesZero ? Math.min(rows - 2, Math.max(1, rawRow(0n))) : undefined;
  const rowOf = (amount: bigint): number => {
    if (zeroRow === undefined) return rawRow(amount);
    if (amount === 0n) return zeroRow;
    return amount < 0n ? Math.max(zeroRow + 1, rawRow(amount)) : Math.min(zeroRow - 1, rawRow(amount));
  };
  const pointRows = amounts.map(rowOf);

  const labels = new Map<number, string>([
    [rows - 1, (points[lowest] as ChartPoint).value],
    [0, (points[highest] as ChartPoint).value],
  ]);
  if (zeroRow !== undefined) labels.set(zeroRow, "0.00");
  const labelWidth = Math.max(...[...labels.values()].map(displayWidth));
  const columns = Math.max(2, options.width - labelWidth - 2);

  // Column c draws the days from `starts[c]` through `ends[c]` (one day for several columns when
  // there are fewer days than columns).
  const starts: number[] = [];
  const ends: number[] = [];
  for (let c = 0; c < columns; c++) {
    const start = Math.floor((c * points.length) / columns);
    starts.push(start);
    ends.push(Math.max(start, Math.floor(((c + 1) * points.length) / columns) - 1));
  }

  const grid = Array.from({ length: rows }, () => Array<string>(columns).fill(" "));
  let entry = pointRows[0] as number;
  for (let c = 0; c < columns; c++) {
    const covered = pointRows.slice(starts[c], (ends[c] as number) + 1);
    const exit = covered[covered.length - 1] as number;
    const top = Math.min(entry, ...covered);
    const bottom = Math.max(entry, ...covered);
    for (let row = top; row <= bottom; row++)
      (grid[row] as string[])[c] = glyphAt(glyphs, row, { top, bottom, entry, exit });
    entry = exit;
  }
  if (zeroRow !== undefined)
    grid[zeroRow] = (grid[zeroRow] as string[]).map((cell) => (cell === " " ? glyphs.zero : cell));
  // The lowest value's first day, in the first column that draws it, on the bottom row.
  const markColumn = starts.findIndex((start, c) => start <= lowest && lowest <= (ends[c] as number));
  (grid[rows - 1] as string[])[markColumn] = glyphs.mark;

  const lines = grid.map((cells, row) => {
    const label = labels.get(row);
    const axis = label === undefined ? glyphs.axis : glyphs.axisLabel;
    return `${(label ?? "").padStart(labelWidth)} ${axis}${cells.join("")}`.trimEnd();
  });
  lines.push(...dateAxis(points, glyphs, { labelWidth, columns, starts, ends }));
  return `${lines.join("\n")}\n`;
}

function glyphAt(
  glyphs: Glyphs,
  row: number,
  stroke: { top: number; bottom: number; entry: number; exit: number },
): string {
  const { top, bottom, entry, exit } = stroke;
  if (top === bottom) return glyphs.horizontal;
  const at = (ifTop: string, ifBottom: string, ifMiddle: string) =>
    row === top ? ifTop : row === bottom ? ifBottom : ifMiddle;
  if (row === entry && row === exit) return at(glyphs.throughTop, glyphs.throughBottom, glyphs.throughMiddle);
  if (row === entry) return at(glyphs.inTop, glyphs.inBottom, glyphs.inMiddle);
  if (row === exit) return at(glyphs.outTop, glyphs.outBottom, glyphs.outMiddle);
  return at(glyphs.topEnd, glyphs.bottomEnd, glyphs.vertical);
}

/** The x axis with a tick under each dated column, and the dates: first, last and, with room, middle. */
function dateAxis(
  points: readonly ChartPoint[],
  glyphs: Glyphs,
  layout: { labelWidth: number; columns: number; starts: number[]; ends: number[] },
): string[] {
  const { labelWidth, columns, starts, ends } = layout;
  const last = columns - 1;
  // [column, date, where the date's first character goes]
  const dated: [number, string, number][] = [];
  if (columns >= DATE_WIDTH) dated.push([0, (points[0] as ChartPoint).date, 0]);
  if (columns >= 2 * DATE_WIDTH + 1)
    dated.push([last, (points[ends[last] as number] as ChartPoint).date, columns - DATE_WIDTH]);
  if (columns >= 3 * DATE_WIDTH + 4) {
    const middle = Math.floor(columns / 2);
    dated.push([middle, (points[starts[middle] as number] as ChartPoint).date, middle - DATE_WIDTH / 2]);
  }
  const axis = Array<string>(columns).fill(glyphs.axisX);
  const text = Array<string>(columns).fill(" ");
  for (const [column, date, at] of dated) {
    axis[column] = glyphs.tick;
    text.splice(at, DATE_WIDTH, ...date.slice(0, DATE_WIDTH).padEnd(DATE_WIDTH));
  }
  const indent = " ".repeat(labelWidth + 1);
  return [`${indent}${glyphs.corner}${axis.join("")}`, `${indent} ${text.join("")}`.trimEnd()];
}
