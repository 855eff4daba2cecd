import { describe, expect, it } from "vitest";
import { calculate, eventRows, forecast, item, rowOf } from "../../test/testing/forecast-test-kit";
import {
  capped,
  goalD,
  goalF,
  money,
  recurring,
  run,
  unallocated,
} from "../../test/testing/funding-plan-test-kit";
import { openOccurrence } from "../../test/testing/funding-test-budgets";
import type { FundingBudget } from "../funding/funding-budget";
import { TooManySteps } from "../funding/funding-plan";

// The budgets fund on Mondays from 2027-01-04 (Recurring fill-ups on Tuesdays from 2027-01-05,
// refreshes on the 1st from 2027-02-01); today is Friday 2027-01-01 unless told.
const TODAY = "2027-01-01";

describe("forecastFunding: the budgets' figures", () => {
  it("given a Goal F, when it reaches its target mid-forecast, then completes_on is that date and no later event is listed", () => {
    // Given
    const budgets = [unallocated("1000"), goalF("Car", "40", "100")];
    // When
    const figures = forecast({ budgets, today: TODAY, until: "2027-02-28", interval: "month" });
    // Then
    expect(eventRows(figures)).toEqual([
      ["2027-01-04", "fund", "Car", "40.00", "40.00", "complete", "960.00"],
      ["2027-01-11", "fund", "Car", "40.00", "40.00", "complete", "920.00"],
      ["2027-01-18", "fund", "Car", "20.00", "20.00", "complete", "900.00"],
    ]);
    expect(rowOf(figures, "Car")).toEqual({
      budget: "Car",
      name: "Car",
      start: "0.00",
      end: "100.00",
      funded: "100.00",
      refreshed: "0.00",
      shortfall: "0.00",
      events: 3,
      partial_events: 0,
      completes_on: "2027-01-18",
    });
  });

  it("given a Goal D, when it is funded through its target date, then it completes on that date", () => {
    const budgets = [unallocated("1000"), goalD("Laptop", "100", "2027-01-18")];
    const figures = forecast({ budgets, today: TODAY, until: "2027-03-31", interval: "week" });
    expect(figures.events.map((e) => e.amount)).toEqual(["33.33", "33.34", "33.33"]);
    expect(rowOf(figures, "Laptop").completes_on).toBe("2027-01-18");
  });

  it("given a Goal already complete and a Capped budget, when the forecast runs, then neither has a completes_on", () => {
    // Given
    const budgets = [
      unallocated("1000"),
      goalF("Done", "10", "100", { balance: "100", complete: true }),
      capped("Fuel", "50", "100"),
    ];
    // When
    const figures = forecast({ budgets, today: TODAY, until: "2027-01-31" });
    // Then
    expect(rowOf(figures, "Done")).toMatchObject({ events: 0, end: "100.00", completes_on: null });
    expect(rowOf(figures, "Fuel")).toMatchObject({ events: 4, end: "100.00", completes_on: null });
  });

  it("given a Goal short of money, when Unallocated runs dry, then its shortfall is what its partial events lacked", () => {
    // Given
    const budgets = [unallocated("120"), goalF("Car", "50", "1000"), goalF("Bike", "30", "1000")];
    // When
    const figures = forecast({ budgets, today: TODAY, until: "2027-01-20" });
    // Then: Monday by Monday, Car before Bike.
    expect(eventRows(figures)).toEqual([
      ["2027-01-04", "fund", "Car", "50.00", "50.00", "complete", "70.00"],
      ["2027-01-04", "fund", "Bike", "30.00", "30.00", "complete", "40.00"],
      ["2027-01-11", "fund", "Car", "50.00", "40.00", "partial", "0.00"],
      ["2027-01-11", "fund", "Bike", "30.00", "0.00", "partial", "0.00"],
      ["2027-01-18", "fund", "Car", "50.00", "0.00", "partial", "0.00"],
      ["2027-01-18", "fund", "Bike", "30.00", "0.00", "partial", "0.00"],
    ]);
    expect(rowOf(figures, "Car")).toMatchObject({ shortfall: "60.00", events: 3, partial_events: 2 });
    expect(rowOf(figures, "Bike")).toMatchObject({ shortfall: "60.00", events: 3, partial_events: 2 });
    expect(figures.unallocated.lowest).toEqual({ date: "2027-01-11", balance: "0.00" });
    expect(figures.unallocated.first_negative).toBeNull();
  });

  it("given a Recurring budget, when its refresh comes, then it is refreshed from its fill-up, which loses it", () => {
    // Given
    const [rent, fillup] = recurring("Rent", "100");
    const budgets = [unallocated("1000"), rent, fillup];
    // When
    const figures = forecast({ budgets, today: TODAY, until: "2027-02-08", interval: "week" });
    // Then
    expect(figures.events.map((e) => [e.date, e.kind, e.budget, e.amount])).toEqual([
      ["2027-01-05", "fund", "Rent Fill-up", "25.00"],
      ["2027-01-12", "fund", "Rent Fill-up", "25.00"],
      ["2027-01-19", "fund", "Rent Fill-up", "25.00"],
      ["2027-01-26", "fund", "Rent Fill-up", "25.00"],
      ["2027-02-01", "recur", "Rent", "100.00"],
      ["2027-02-02", "fund", "Rent Fill-up", "25.00"],
    ]);
    expect(figures.events[4]?.description).toBe("Refreshes Rent from its fill-up");
    expect(rowOf(figures, "Rent")).toMatchObject({ end: "100.00", funded: "0.00", refreshed: "100.00" });
    expect(rowOf(figures, "Rent Fill-up")).toMatchObject({
      end: "25.00",
      funded: "125.00",
      refreshed: "0.00",
    });
    expect(figures.unallocated.end).toBe("875.00");
  });

  it("given Unallocated already below zero, when the forecast runs, then today is its first negative day and its lowest", () => {
    const budgets = [unallocated("-10"), goalF("Car", "50", "1000")];
    const figures = forecast({
      budgets,
      today: TODAY,
      until: "2027-01-10",
      items: [item("2027-01-06", "5")],
    });
    expect(figures.unallocated).toEqual({
      start: "-10.00",
      end: "-5.00",
      lowest: { date: TODAY, balance: "-10.00" },
      first_negative: TODAY,
    });
    expect(rowOf(figures, "Car").shortfall).toBe("50.00");
  });

  it("given the lowest balance between two series points, when the interval is month, then lowest still finds its first day", () => {
    // Given: Unallocated dips to 50 on the 5th, comes back, and dips to 50 again on the 7th.
    const budgets = [unallocated("100")];
    // When
    const figures = forecast({
      budgets,
      today: TODAY,
      until: "2027-02-15",
      interval: "month",
      items: [item("2027-01-05", "-50"), item("2027-01-06", "50"), item("2027-01-07", "-50")],
    });
    // Then
    expect(figures.series.map((p) => [p.date, p.unallocated])).toEqual([
      ["2027-01-31", "50.00"],
      ["2027-02-15", "50.00"],
    ]);
    expect(figures.unallocated.lowest).toEqual({ date: "2027-01-05", balance: "50.00" });
  });

  it("given an item that takes Unallocated negative for a day only, when the interval is week, then first_negative is that day", () => {
    const budgets = [unallocated("10")];
    const figures = forecast({
      budgets,
      today: TODAY,
      until: "2027-01-31",
      interval: "week",
      items: [item("2027-01-12", "-15"), item("2027-01-13", "15")],
    });
    expect(figures.unallocated.first_negative).toBe("2027-01-12");
    expect(figures.unallocated.lowest).toEqual({ date: "2027-01-12", balance: "-5.00" });
    expect(figures.series.every((p) => p.unallocated === "10.00")).toBe(true);
  });
});

describe("forecastFunding: overdue events and top-ups", () => {
  it("given a budget whose pointer lags, when the forecast runs, then its overdue events apply first with their own dates and the series starts at today", () => {
    // Given: today is Wednesday 2027-01-20 and Car was last funded before 2027-01-04.
    const budgets = [unallocated("1000"), goalF("Car", "50", "1000")];
    // When
    const figures = forecast({
      budgets,
      today: "2027-01-20",
      until: "2027-01-31",
      items: [item("2027-01-20", "10", null, "Today")],
      interval: "week",
    });
    // Then
    expect(eventRows(figures)).toEqual([
      ["2027-01-04", "fund", "Car", "50.00", "50.00", "complete", "950.00"],
      ["2027-01-11", "fund", "Car", "50.00", "50.00", "complete", "900.00"],
      ["2027-01-18", "fund", "Car", "50.00", "50.00", "complete", "850.00"],
      ["2027-01-20", "item", null, "10.00", "10.00", "complete", "860.00"],
      ["2027-01-25", "fund", "Car", "50.00", "50.00", "complete", "810.00"],
    ]);
    expect(figures.series).toEqual([
      { date: "2027-01-24", unallocated: "860.00", budgets: { Car: "150.00" } },
      { date: "2027-01-31", unallocated: "810.00", budgets: { Car: "200.00" } },
    ]);
    const daily = forecast({ budgets, today: "2027-01-20", until: "2027-01-31" });
    expect(daily.series[0]).toEqual({
      date: "2027-01-20",
      unallocated: "850.00",
      budgets: { Car: "150.00" },
    });
    expect(daily.unallocated.lowest).toEqual({ date: "2027-01-25", balance: "800.00" });
  });

  it("given overdue events that lower Unallocated below what it ends at, when the forecast runs, then the lowest is today's", () => {
    const budgets = [unallocated("100"), goalF("Car", "50", "1000")];
    const figures = forecast({
      budgets,
      today: "2027-01-13",
      until: "2027-01-16",
      items: [item("2027-01-14", "500")],
    });
    expect(figures.unallocated.lowest).toEqual({ date: "2027-01-13", balance: "0.00" });
  });

  it("given an open partial occurrence, when Unallocated can pay part of it, then it is topped up at its own date and stays partial", () => {
    // Given: Car's 2027-01-04 event moved 20 of 50; today is 2027-01-05.
    const budgets = [
      unallocated("10"),
      goalF("Car", "50", "200", { balance: "20", processedThrough: "2027-01-04" }),
    ];
    const open = [openOccurrence("Car", "2027-01-04", "50", "20")];
    // When
    const figures = forecast({ budgets, open, today: "2027-01-05", until: "2027-01-10" });
    // Then
    expect(eventRows(figures)).toEqual([["2027-01-04", "fund", "Car", "30.00", "10.00", "partial", "0.00"]]);
    expect(figures.events[0]?.description).toBe("Tops up Car's partial funding");
    expect(rowOf(figures, "Car")).toMatchObject({ funded: "10.00", shortfall: "20.00", partial_events: 1 });
  });

  it("given an open partial occurrence, when Unallocated can pay all of it, then it completes and nothing is short", () => {
    const budgets = [
      unallocated("100"),
      goalF("Car", "50", "200", { balance: "20", processedThrough: "2027-01-04" }),
    ];
    const open = [openOccurrence("Car", "2027-01-04", "50", "20")];
    const figures = forecast({ budgets, open, today: "2027-01-05", until: "2027-01-12" });
    expect(eventRows(figures)).toEqual([
      ["2027-01-04", "fund", "Car", "30.00", "30.00", "complete", "70.00"],
      ["2027-01-11", "fund", "Car", "50.00", "50.00", "complete", "20.00"],
    ]);
    expect(rowOf(figures, "Car")).toMatchObject({ end: "100.00", shortfall: "0.00" });
  });
  it("given an open occurrence dated after until (a run ahead of today left it), when the forecast tops it up, then until's balances have it", () => {
    // Given: a run as of 2027-02-01 left Car's event of that date partial; today is 2027-01-05.
    const budgets = [
      unallocated("100"),
      goalF("Car", "50", "200", { balance: "20", processedThrough: "2027-02-01" }),
    ];
    const open = [openOccurrence("Car", "2027-02-01", "50", "20")];
    // When
    const figures = forecast({ budgets, open, today: "2027-01-05", until: "2027-01-20", interval: "week" });
    // Then: run-funding as of until would top it up, so the forecast does, and its series ends where the budgets do.
    expect(eventRows(figures)).toEqual([
      ["2027-02-01", "fund", "Car", "30.00", "30.00", "complete", "70.00"],
    ]);
    expect(rowOf(figures, "Car").end).toBe("50.00");
    expect(figures.series.at(-1)).toEqual({
      date: "2027-01-20",
      unallocated: "70.00",
      budgets: { Car: "50.00" },
    });
    expect(figures.unallocated.lowest).toEqual({ date: "2027-01-20", balance: "70.00" });
  });
});

describe("forecastFunding: paused budgets", () => {
  it("given a paused Goal with an open partial occurrence, when the forecast runs, then its events are skipped at their dates and the occurrence stays short", () => {
    // Given
    const budgets = [
      unallocated("1000"),
      goalF("Car", "50", "200", { balance: "20", paused: true, processedThrough: "2027-01-04" }),
      goalF("Bike", "10", "1000"),
    ];
    const open = [openOccurrence("Car", "2027-01-04", "50", "20")];
    // When
    const figures = forecast({ budgets, open, today: "2027-01-05", until: "2027-01-20" });
    // Then: Bike, whose pointer lags, is funded from 2027-01-04; Car is skipped where its events fall.
    expect(eventRows(figures)).toEqual([
      ["2027-01-04", "fund", "Bike", "10.00", "10.00", "complete", "990.00"],
      ["2027-01-11", "fund", "Car", "0.00", "0.00", "skipped", "990.00"],
      ["2027-01-11", "fund", "Bike", "10.00", "10.00", "complete", "980.00"],
      ["2027-01-18", "fund", "Car", "0.00", "0.00", "skipped", "980.00"],
      ["2027-01-18", "fund", "Bike", "10.00", "10.00", "complete", "970.00"],
    ]);
    expect(figures.events[1]?.description).toBe("Car: skipped while paused");
    expect(rowOf(figures, "Car")).toMatchObject({
      end: "20.00",
      funded: "0.00",
      shortfall: "30.00",
      events: 2,
      partial_events: 0,
    });
  });

  it("given a paused Recurring budget, when the forecast runs, then its fill-up's events and its refresh are skipped", () => {
    // Given
    const [rent, fillup] = recurring("Rent", "100");
    rent.paused = true;
    const budgets = [unallocated("1000"), rent, fillup];
    const open = [openOccurrence("Rent Fill-up", "2027-01-05", "25", "5")];
    // When
    const figures = forecast({ budgets, open, today: TODAY, until: "2027-02-01" });
    // Then
    expect(figures.events.map((e) => [e.date, e.kind, e.budget, e.status, e.amount])).toEqual([
      ["2027-01-05", "fund", "Rent Fill-up", "skipped", "0.00"],
      ["2027-01-12", "fund", "Rent Fill-up", "skipped", "0.00"],
      ["2027-01-19", "fund", "Rent Fill-up", "skipped", "0.00"],
      ["2027-01-26", "fund", "Rent Fill-up", "skipped", "0.00"],
      ["2027-02-01", "recur", "Rent", "skipped", "0.00"],
    ]);
    expect(rowOf(figures, "Rent Fill-up")).toMatchObject({ shortfall: "20.00", events: 4 });
    expect(rowOf(figures, "Rent")).toMatchObject({ shortfall: "0.00", events: 1, refreshed: "0.00" });
    expect(figures.unallocated.end).toBe("1000.00");
  });
});

describe("forecastFunding: limits", () => {
  it("given more events and items than maxSteps, when the forecast is asked, then it throws TooManySteps", () => {
    // Given: four Mondays in January and two items, six steps.
    const budgets = [unallocated("1000"), goalF("Car", "10", "1000")];
    const items = [item("2027-01-02", "1"), item("2027-01-03", "1")];
    const input = { budgets, today: TODAY, until: "2027-01-31", items };
    // When / Then
    expect(forecast({ ...input, maxSteps: 6 }).events).toHaveLength(6);
    expect(() => calculate({ ...input, maxSteps: 5 })).toThrow(TooManySteps);
    expect(budgets.map((b) => money(b.balance))).toEqual(["1000.00", "0.00"]);
  });

  it("given an account without an Unallocated budget, when the forecast is asked, then it refuses", () => {
    expect(() =>
      calculate({ budgets: [goalF("Car", "10", "100")], today: TODAY, until: "2027-01-31" }),
    ).toThrow(/Unallocated/);
  });
});

/** A bit of everything: Goals F and D, Capped, Recurring, a paused Goal, a lagging pointer, an open occurrence, too little money. */
function mixedAccount(): FundingBudget[] {
  const [rent, fillup] = recurring("Rent", "300");
  return [
    unallocated("700"),
    goalF("Car", "50", "1000", { balance: "20", processedThrough: "2027-01-04" }),
    goalD("Laptop", "600", "2027-03-01"),
    capped("Fuel", "40", "100", { balance: "30" }),
    rent,
    fillup,
    goalF("Paused", "10", "100", { paused: true }),
    goalF("Done", "10", "100", { balance: "100", complete: true }),
    goalF("Old", "10", "100", { archived: true }),
  ];
}

describe("forecastFunding: the pure half of the agreement with run-funding", () => {
  it.each([["2027-01-31"], ["2027-03-15"], ["2027-06-30"]])(
    "given a mixed account and no items, when forecast to %s, then it is the engine's own plan through that date",
    (until) => {
      // Given
      const open = [openOccurrence("Car", "2027-01-04", "50", "20")];
      const today = "2027-01-10";
      // When
      const figures = forecast({ budgets: mixedAccount(), open, today, until, interval: "month" });
      const engine = mixedAccount();
      const plan = run(engine, until, { open });
      // Then: event for occurrence, in the same order, and what moved transfer for transfer.
      expect(figures.events.map((e) => [e.date, e.budget, e.kind, e.status.toUpperCase()])).toEqual(
        plan.occurrences.map((o) => [o.scheduledDate, o.budgetId, o.kind, o.status]),
      );
      const moved = figures.events.filter((e) => e.amount !== "0.00");
      expect(moved.map((e) => [e.date, e.budget, e.amount])).toEqual(
        plan.transfers.map((t) => [t.date, t.destinationId, money(t.amount)]),
      );
      figures.events.forEach((e, index) => {
        const occurrence = plan.occurrences[index];
        if (!occurrence || occurrence.id !== undefined) return;
        expect([e.intended, e.amount]).toEqual([money(occurrence.amount), money(occurrence.movedAmount)]);
      });
      const ends = Object.fromEntries(engine.map((b) => [b.id, money(b.balance)]));
      expect(figures.unallocated.end).toBe(ends.Unallocated);
      for (const row of figures.budgets) expect(row.end).toBe(ends[row.budget]);
      for (const row of figures.budgets)
        expect(row.completes_on !== null).toBe(
          engine.some((b) => b.id === row.budget && b.complete && b.budgetType === "G" && b.id !== "Done"),
        );
      expect(figures.budgets.map((row) => row.budget)).toEqual([
        "Car",
        "Laptop",
        "Fuel",
        "Rent",
        "Rent Fill-up",
        "Paused",
        "Done",
      ]);
    },
  );
});
