import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it, vi } from "vitest";
import { useCliServer } from "../../test/testing/cli-server";
import { useScriptedProxy } from "../../test/testing/scripted-proxy";
import { dailyUnallocated } from "./forecast-balances";

// Each test runs the real CLI several times (a second or more each to start, far more on a busy
// machine), and the server's database can be slow to open then too.
vi.setConfig({ testTimeout: 900_000, hookTimeout: 300_000 });

const DAY_MS = 24 * 60 * 60 * 1000;
const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** The lines from the chart's title through the call-outs: what the chart tests look at. */
const chartOf = (stdout: string) => stdout.slice(stdout.indexOf("Unallocated (USD) at the end of each day"));

describe.each(testEngines())("allot forecast against a running API (%s)", (engine) => {
  const server = useCliServer(engine);
  const proxy = useScriptedProxy(() => server.baseUrl);

  it("prints the budgets, a chart of Unallocated and its lowest point; --item changes it; --json is the API's answer", async () => {
    const { client, allot: run } = await server.apiKeyUser();
    const account = await client.bankAccounts.create({
      name: "Checking",
      bank: (await server.bank()).id,
      posted_balance: "1000.00",
      available_balance: "1000.00",
    });
    const weekly = { funding_type: "F", funding_schedule: "FREQ=WEEKLY", bank_account: account.id } as const;
    await client.budgets.create({
      ...weekly,
      budget_type: "C",
      name: "Groceries",
      target_balance: "600",
      funding_amount: "150",
    });
    await client.budgets.create({
      ...weekly,
      budget_type: "G",
      name: "Car",
      target_balance: "400",
      funding_amount: "100",
    });
    const allot = (args: string[], env: Record<string, string> = {}) => run(args, { env });

    // --json: the API's answer as it is, the SDK's.
    const json = await allot(["forecast", "--json"]);
    expect(json.stderr).toBe("");
    expect(json.code).toBe(0);
    const forecast = await client.forecasts.get({ id: account.id });
    expect(json.json()).toEqual(forecast);
    const { from, until } = forecast;
    // Both budgets take 250.00 a week from 1000.00 until full: Unallocated is 0.00 from the fourth week.
    expect(forecast.unallocated).toEqual({
      start: "1000.00",
      end: "0.00",
      lowest: { date: addDays(from, 21), balance: "0.00" },
      first_negative: null,
    });

    // For people, without a UTF-8 locale (the CLI runs with none): ASCII, 80 columns.
    const table = await allot(["forecast"]);
    expect(table.stderr).toBe("");
    expect(table.code).toBe(0);
    const out = table.stdout;
    expect(out.split("\n")[0]).toBe(`Forecast of Checking (USD), ${from} -> ${until}`);
    expect(out).toContain("\nAssumptions:\n  - Starts from the balances of");
    expect(out).toMatch(/^NAME +START +END +FUNDED +REFRESHED +SHORTFALL +EVENTS +COMPLETES$/m);
    expect(out).toMatch(/^Groceries +0\.00 +600\.00 +600\.00 +0\.00 +0\.00 +\d+ +-$/m);
    expect(out).toMatch(
      new RegExp(`^Car +0\\.00 +400\\.00 +400\\.00 +0\\.00 +0\\.00 +4 +${addDays(from, 21)}$`, "m"),
    );
    const chart = chartOf(out);
    expect(chart.split("\n")[0]).toBe(
      `Unallocated (USD) at the end of each day: 1000.00 now, 0.00 on ${until}`,
    );
    for (const line of out.split("\n")) expect(line.length).toBeLessThanOrEqual(80);
    expect([...chart].every((char) => (char.codePointAt(0) ?? 0) < 128)).toBe(true);
    // The highest and lowest end-of-day values label the y axis (750.00 once today's funding is
    // done); the first, middle and last days the x axis (91 days on 72 columns: day 45 in the middle).
    expect(chart).toMatch(/^750\.00 \+-/m);
    expect(chart).toMatch(/^ {2}0\.00 \+ +\*-+$/m);
    expect(chart).toMatch(new RegExp(`^ {8}${from} +${addDays(from, 45)} +${until}$`, "m"));
    expect(chart).toContain(
      `\n\n* Lowest:          0.00 USD on ${addDays(from, 21)}\n  First negative:  never negative through ${until}\n`,
    );
    expect(out.endsWith(`never negative through ${until}\n`)).toBe(true);

    // With a UTF-8 locale: box drawing, an arrow and a bullet.
    const utf8 = await allot(["forecast", "--account", "checking"], { LANG: "C.UTF-8" });
    expect(utf8.code).toBe(0);
    expect(utf8.stdout.split("\n")[0]).toBe(`Forecast of Checking (USD), ${from} → ${until}`);
    expect(utf8.stdout).toContain("\nAssumptions:\n  • Starts from");
    expect(chartOf(utf8.stdout)).toMatch(/^750\.00 ┤─/m);
    expect(chartOf(utf8.stdout)).toMatch(/^ {2}0\.00 ┤ +●─+$/m);
    expect(utf8.stdout).toContain(`\n● Lowest:          0.00 USD on ${addDays(from, 21)}\n`);

    // A what-if: a car repair on the tenth day takes Unallocated below zero that day.
    const repair = `${addDays(from, 10)} -1200.00 Car repair`;
    const whatIf = await client.forecasts.whatIf({
      id: account.id,
      items: [{ date: addDays(from, 10), amount: "-1200.00", description: "Car repair" }],
    });
    expect(whatIf.unallocated.first_negative).toBe(addDays(from, 10));
    // The chart's days, drawn from the events alone, agree with every point of the API's series.
    for (const answer of [forecast, whatIf]) {
      const days = new Map(dailyUnallocated({ ...answer, series: [] }).map((day) => [day.date, day.value]));
      for (const point of answer.series) expect(days.get(point.date)).toBe(point.unallocated);
    }
    expect(whatIf.unallocated).not.toEqual(forecast.unallocated);
    const whatIfJson = await allot(["forecast", "--item", repair, "--json"]);
    expect(whatIfJson.code).toBe(0);
    expect(whatIfJson.json()).toEqual(whatIf);
    const whatIfTable = await allot(["forecast", "--item", repair]);
    expect(whatIfTable.stderr).toBe("");
    expect(whatIfTable.code).toBe(0);
    const { lowest } = whatIf.unallocated;
    const whatIfChart = chartOf(whatIfTable.stdout);
    expect(whatIfChart).toContain(
      `\n* Lowest:          ${lowest.balance} USD on ${lowest.date}\n  First negative:  ${addDays(from, 10)}\n`,
    );
    // The y axis reaches the lowest balance, and marks zero between the highest and it.
    expect(whatIfChart).toMatch(new RegExp(`^ *${lowest.balance.replace(".", "\\.")} \\+ +\\*`, "m"));
    expect(whatIfChart).toMatch(/^ +0\.00 \+[-.|+]+/m);
    // The table may be wider (names, "13, 11 partial"); the chart is not.
    for (const line of whatIfChart.split("\n")) expect(line.length).toBeLessThanOrEqual(80);
    expect(whatIfTable.stdout).toMatch(
      /^Car +0\.00 +200\.00 +200\.00 +0\.00 +\d+\.\d\d +\d+, \d+ partial +-$/m,
    );
  });

  it("refuses a bad --item or --until before anything is sent (exit 2), and passes on the API's refusal (exit 1)", async () => {
    const { client, allot: direct } = await server.apiKeyUser();
    // Through the proxy, which records what reaches the API.
    const allot = (args: string[]) => direct(args, { env: { ALLOT_BASE_URL: proxy.url } });

    const noAmount = await allot(["forecast", "--item", "2027-01-15 Car repair"]);
    expect(noAmount.code).toBe(2);
    expect(noAmount.stderr).toBe(
      `error: --item '2027-01-15 Car repair': 'Car' is not an amount like -1200.00 (up to 12 digits and 2 decimals). Give "DATE AMOUNT DESCRIPTION", e.g. "2027-01-15 -1200.00 Car repair" (AMOUNT signed: negative is money out).\n`,
    );
    const second = await allot([
      "forecast",
      "--item",
      "2027-01-15 -5 Lunch",
      "--item",
      "2027-01-32 -5 Lunch",
      "--json",
    ]);
    expect(second.code).toBe(2);
    expect(second.errorJson()).toMatchObject({ code: "invalid_item" });
    const badUntil = await allot(["forecast", "--until", "soon"]);
    expect(badUntil.code).toBe(2);
    expect(badUntil.stderr).toBe("error: --until must be a date, YYYY-MM-DD, not 'soon'.\n");
    const badInterval = await allot(["forecast", "--interval", "year"]);
    expect(badInterval.code).toBe(2);
    expect(proxy.seen).toEqual([]);

    // Through the proxy to the API: an `until` too far is its 400, exit 1.
    await client.bankAccounts.create({
      name: "Savings",
      bank: (await server.bank()).id,
      posted_balance: "10.00",
      available_balance: "10.00",
    });
    const far = await allot(["forecast", "--until", "2099-12-31"]);
    expect(far.code).toBe(1);
    expect(far.stderr).toMatch(/^error: invalid input\n {2}until: /);
    expect(proxy.seen.some((call) => call.path.includes("/forecast/"))).toBe(true);
  });
});
