import { describe, expect, it } from "vitest";
import { type ChartPoint, lowestMark, renderLineChart } from "./line-chart";

/** One point a day from 2026-01-01 (UTC days: no clock change to trip over). */
const daily = (values: readonly string[]): ChartPoint[] =>
  values.map((value, i) => ({
    date: new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10),
    value,
  }));

/** Three years of a wave between -999.99 and 999.99, with a deepest day in the second year. */
const LONG = daily(
  Array.from({ length: 1_097 }, (_, i) =>
    i === 500 ? "-1500.25" : (Math.round(99_999 * Math.sin(i / 45)) / 100).toFixed(2),
  ),
);

const lines = (chart: string) => chart.replace(/\n$/, "").split("\n");
const plotRows = (chart: string) => lines(chart).slice(0, -2);
const markColumn = (line: string, mark: string) => [...line].indexOf(mark);

describe("renderLineChart", () => {
  it.each([80, 60, 40])("keeps every line of a three-year series within %i columns", (width) => {
    for (const unicode of [true, false]) {
      const chart = renderLineChart(LONG, { width, unicode });
      const widths = lines(chart).map((line) => [...line].length);
      expect(Math.max(...widths)).toBeLessThanOrEqual(width);
      // It uses the room it has: the axis line reaches the last column.
      expect(lines(chart).at(-2)).toHaveLength(width);
    }
  });

  it("draws in ASCII only when the locale is not UTF-8", () => {
    const chart = renderLineChart(LONG, { width: 80, unicode: false });
    const codes = [...chart].map((char) => char.codePointAt(0) ?? 0);
    expect(codes.every((code) => code < 128)).toBe(true);
    expect(chart).toContain("*");
    // With UTF-8 it draws with box-drawing characters.
    expect(renderLineChart(LONG, { width: 80, unicode: true })).toMatch(/[╭╮╰╯─│]/);
  });

  it("marks the lowest point once, on the bottom row labelled with its value, in its day's column", () => {
    for (const unicode of [true, false]) {
      const mark = lowestMark(unicode);
      const chart = renderLineChart(LONG, { width: 80, unicode });
      const rows = plotRows(chart);
      expect(chart.split(mark)).toHaveLength(2);
      const bottom = rows.at(-1) as string;
      expect(bottom).toMatch(/^-1500\.25 /);
      // Column 500 of 1097 days, on a plot of 80 - 10 (label, space, axis) = 70 columns.
      const plotStart = "-1500.25 |".length;
      expect(markColumn(bottom, mark) - plotStart).toBe(Math.floor((500 * 70) / 1_097));
    }
  });

  it("marks the first of several lowest days, and takes the labels from the strings as given", () => {
    const points = daily(["1234567890.12", "0.10", "5.00", "0.10", "7.00"]);
    const chart = renderLineChart(points, { width: 60, unicode: false, height: 4 });
    const rows = plotRows(chart);
    expect(rows[0]).toMatch(/^1234567890\.12 \+/);
    expect(rows.at(-1)).toMatch(/^ {9}0\.10 \+/);
    // Five days on 60 - 15 = 45 columns: nine a day, the second day's first column marked.
    expect(markColumn(rows.at(-1) as string, "*") - "1234567890.12 +".length).toBe(9);
  });

  it("draws a flat series as one labelled row with the mark on its first day", () => {
    const chart = renderLineChart(daily(Array(90).fill("500.00")), { width: 80, unicode: true });
    // 80 - 8 (label, space, axis) = 72 columns; ticks at the first, the middle and the last.
    expect(lines(chart)).toEqual([
      `500.00 ┤●${"─".repeat(71)}`,
      `       └┬${"─".repeat(35)}┬${"─".repeat(34)}┬`,
      `        2026-01-01${" ".repeat(21)}2026-02-15${" ".repeat(21)}2026-03-31`,
    ]);
  });

  it("puts a dip below zero under a zero line of its own, however shallow", () => {
    const values = Array.from({ length: 60 }, (_, i) => (i >= 30 && i < 35 ? "-0.01" : "5000.00"));
    const chart = renderLineChart(daily(values), { width: 80, unicode: false, height: 8 });
    const rows = plotRows(chart);
    expect(rows).toHaveLength(8);
    const zero = rows.findIndex((row) => row.trimStart().startsWith("0.00 "));
    expect(rows[zero]).toMatch(/^ {3}0\.00 \+/);
    expect(rows[zero]).toContain("....");
    // The dip is drawn on the row under the zero line: the bottom one, labelled -0.01 and marked.
    expect(zero).toBe(rows.length - 2);
    expect(rows.at(-1)).toMatch(/^ {2}-0\.01 \+ +\*-+\+$/);
    expect(rows[0]).toMatch(/^5000\.00 \+-+\+ +\+-+$/);
  });

  it("stretches two days across the plot, eleven columns each", () => {
    const chart = renderLineChart(daily(["10.00", "-10.00"]), { width: 30, unicode: true, height: 3 });
    expect(lines(chart)).toEqual([
      " 10.00 ┤───────────╮",
      "  0.00 ┤┈┈┈┈┈┈┈┈┈┈┈│┈┈┈┈┈┈┈┈┈┈",
      "-10.00 ┤           ●──────────",
      "       └┬────────────────────┬",
      "        2026-01-01  2026-01-02",
    ]);
  });
});
