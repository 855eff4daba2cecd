import type { Forecast } from "@allot/sdk/resource-types";
import type { Column } from "../format/columns";
import { lowestMark, renderLineChart } from "../format/line-chart";
import { renderTable } from "../format/table";
import { shown, terminalText } from "../format/terminal-text";
import { wrapText } from "../format/wrap-text";
import { dailyUnallocated } from "./forecast-balances";

type ForecastBudget = Forecast["budgets"][number];

/** The chart is no wider than this on a wide terminal: ten rows over 200 columns read as flat. */
const CHART_MAX_WIDTH = 100;

const BUDGET_COLUMNS: readonly Column<ForecastBudget>[] = [
  { header: "Name", value: (b) => b.name },
  { header: "Start", value: (b) => b.start, money: true },
  { header: "End", value: (b) => b.end, money: true },
  { header: "Funded", value: (b) => b.funded, money: true },
  { header: "Refreshed", value: (b) => b.refreshed, money: true },
  { header: "Shortfall", value: (b) => b.shortfall, money: true },
  // How many events, and how many of them end partial (the number to worry about) when some do.
  {
    header: "Events",
    value: (b) => (b.partial_events > 0 ? `${b.events}, ${b.partial_events} partial` : b.events),
  },
  { header: "Completes", value: (b) => b.completes_on },
];

export interface ReportLayout {
  /** The account's name, for the heading. */
  accountName: string;
  /** The columns stdout has (the terminal's, or 80). */
  width: number;
  /** Whether stdout takes UTF-8 (box drawing, arrows, bullets); else ASCII only. */
  unicode: boolean;
  /** Negative amounts red in the table. */
  colour: boolean;
}

/**
 * The forecast for people: a heading (account, from → until, currency), the assumptions, a table
 * of the budgets, a chart of Unallocated at the end of each day, and the lowest point and the first
 * negative day called out. Every figure is the API's decimal string, as given.
 */
export function renderForecastReport(forecast: Forecast, layout: ReportLayout): string {
  const { width, unicode } = layout;
  const arrow = unicode ? "→" : "->";
  const { unallocated, currency } = forecast;
  const out: string[] = [
    shown`Forecast of ${layout.accountName} (${currency}), ${forecast.from} ${arrow} ${forecast.until}`,
    "",
  ];

  if (forecast.assumptions.length > 0) {
    out.push("Assumptions:");
    for (const assumption of forecast.assumptions)
      out.push(
        ...wrapText(terminalText(assumption), width, { first: unicode ? "  • " : "  - ", rest: "    " }),
      );
    out.push("");
  }

  const sentence = (text: string) => wrapText(text, width, { first: "", rest: "" });
  if (forecast.budgets.length > 0) out.push(renderTable(forecast.budgets, BUDGET_COLUMNS, layout.colour), "");
  else
    out.push(
      ...sentence("No budget to forecast but Unallocated: create one with `allot budgets create`."),
      "",
    );

  out.push(
    ...sentence(
      shown`Unallocated (${currency}) at the end of each day: ${unallocated.start} now, ${unallocated.end} on ${forecast.until}`,
    ),
    renderLineChart(dailyUnallocated(forecast), {
      width: Math.min(width, CHART_MAX_WIDTH),
      unicode,
    }),
  );

  const mark = lowestMark(unicode);
  out.push(
    "",
    shown`${mark} Lowest:          ${unallocated.lowest.balance} ${currency} on ${unallocated.lowest.date}`,
    unallocated.first_negative === null
      ? shown`  First negative:  never negative through ${forecast.until}`
      : shown`  First negative:  ${unallocated.first_negative}`,
  );
  // The table and the chart end in their own newline: join without doubling it.
  return `${out.map((part) => part.replace(/\n$/, "")).join("\n")}\n`;
}
