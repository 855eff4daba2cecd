import { describe, expect, it } from "vitest";
import { eventRows, forecast, item, rowOf } from "../../test/testing/forecast-test-kit";
import { capped, goalF, unallocated } from "../../test/testing/funding-plan-test-kit";

// The budgets fund on Mondays from 2027-01-04; today is Friday 2027-01-01 unless told.
const TODAY = "2027-01-01";

describe("forecastFunding: what-if items", () => {
  it("given Unallocated short of a fund event, when an item brings the rest that day, then the event completes", () => {
    // Given
    const budgets = () => [unallocated("30"), goalF("Car", "50", "1000")];
    const without = forecast({ budgets: budgets(), today: TODAY, until: "2027-01-10" });
    expect(eventRows(without)).toEqual([["2027-01-04", "fund", "Car", "50.00", "30.00", "partial", "0.00"]]);
    // When
    const withItem = forecast({
      budgets: budgets(),
      today: TODAY,
      until: "2027-01-10",
      items: [item("2027-01-04", "20", null, "Bonus")],
    });
    // Then: the item applies first, so the fund event finds 50.
    expect(eventRows(withItem)).toEqual([
      ["2027-01-04", "item", null, "20.00", "20.00", "complete", "50.00"],
      ["2027-01-04", "fund", "Car", "50.00", "50.00", "complete", "0.00"],
    ]);
    expect(withItem.events[0]?.description).toBe("Bonus");
    expect(rowOf(withItem, "Car")).toMatchObject({ end: "50.00", shortfall: "0.00", partial_events: 0 });
  });

  it("given an item into a budget, when the forecast runs, then the budget gets it and Unallocated does not", () => {
    // Given
    const budgets = [unallocated("30"), goalF("Car", "50", "1000")];
    // When
    const figures = forecast({
      budgets,
      today: TODAY,
      until: "2027-01-10",
      items: [item("2027-01-04", "20", "Car")],
    });
    // Then: a Goal's funded amount follows transfers only, so its event still asks 50 of Unallocated.
    expect(eventRows(figures)).toEqual([
      ["2027-01-04", "item", "Car", "20.00", "20.00", "complete", "30.00"],
      ["2027-01-04", "fund", "Car", "50.00", "30.00", "partial", "0.00"],
    ]);
    expect(rowOf(figures, "Car")).toMatchObject({ start: "0.00", end: "50.00", funded: "30.00" });
    expect(rowOf(figures, "Car").shortfall).toBe("20.00");
    expect(figures.unallocated).toMatchObject({ start: "30.00", end: "0.00" });
  });

  it("given an item into a Capped budget on its fund date, when the forecast runs, then the event asks only up to the cap", () => {
    // Given: 80 arrives in Fuel (capped at 100, 50 a week) before its Monday event.
    const budgets = [unallocated("500"), capped("Fuel", "50", "100")];
    // When
    const figures = forecast({
      budgets,
      today: TODAY,
      until: "2027-01-04",
      items: [item("2027-01-04", "80", "Fuel", "Refund")],
    });
    // Then
    expect(eventRows(figures)).toEqual([
      ["2027-01-04", "item", "Fuel", "80.00", "80.00", "complete", "500.00"],
      ["2027-01-04", "fund", "Fuel", "20.00", "20.00", "complete", "480.00"],
    ]);
  });

  it("given a negative item that takes Unallocated below zero, when the forecast runs, then later events move nothing and the first negative day is the item's", () => {
    // Given
    const budgets = [unallocated("100"), goalF("Car", "50", "1000")];
    // When
    const figures = forecast({
      budgets,
      today: TODAY,
      until: "2027-01-20",
      items: [item("2027-01-11", "-80", null, "New tyres")],
    });
    // Then
    expect(eventRows(figures)).toEqual([
      ["2027-01-04", "fund", "Car", "50.00", "50.00", "complete", "50.00"],
      ["2027-01-11", "item", null, "-80.00", "-80.00", "complete", "-30.00"],
      ["2027-01-11", "fund", "Car", "50.00", "0.00", "partial", "-30.00"],
      ["2027-01-18", "fund", "Car", "50.00", "0.00", "partial", "-30.00"],
    ]);
    expect(figures.unallocated).toEqual({
      start: "100.00",
      end: "-30.00",
      lowest: { date: "2027-01-11", balance: "-30.00" },
      first_negative: "2027-01-11",
    });
    expect(rowOf(figures, "Car")).toMatchObject({
      end: "50.00",
      shortfall: "100.00",
      events: 3,
      partial_events: 2,
    });
  });

  it("given a negative item out of a budget, when the forecast runs, then only that budget's balance falls", () => {
    // Given: Fuel (capped at 100) holds 100, and 70 is spent from it on Monday.
    const budgets = [unallocated("500"), capped("Fuel", "50", "100", { balance: "100" })];
    // When
    const figures = forecast({
      budgets,
      today: TODAY,
      until: "2027-01-11",
      items: [item("2027-01-04", "-70", "Fuel")],
    });
    // Then: the spending leaves room for 50 then 20 more.
    expect(eventRows(figures)).toEqual([
      ["2027-01-04", "item", "Fuel", "-70.00", "-70.00", "complete", "500.00"],
      ["2027-01-04", "fund", "Fuel", "50.00", "50.00", "complete", "450.00"],
      ["2027-01-11", "fund", "Fuel", "20.00", "20.00", "complete", "430.00"],
    ]);
    expect(rowOf(figures, "Fuel")).toMatchObject({ start: "100.00", end: "100.00", funded: "70.00" });
  });

  it("given several items on one date, when the forecast runs, then they apply in the order given, before that date's events", () => {
    // Given: three items on Monday, and one on Sunday given last.
    const budgets = [unallocated("20"), goalF("Car", "50", "1000")];
    // When
    const figures = forecast({
      budgets,
      today: TODAY,
      until: "2027-01-05",
      items: [
        item("2027-01-04", "10", null, "A"),
        item("2027-01-04", "-30", null, "B"),
        item("2027-01-04", "5", "Car", "C"),
        item("2027-01-04", "5", null, "D"),
        item("2027-01-03", "1", null, "Sunday"),
      ],
    });
    // Then
    expect(figures.events.map((e) => [e.date, e.description, e.unallocated_after])).toEqual([
      ["2027-01-03", "Sunday", "21.00"],
      ["2027-01-04", "A", "31.00"],
      ["2027-01-04", "B", "1.00"],
      ["2027-01-04", "C", "1.00"],
      ["2027-01-04", "D", "6.00"],
      ["2027-01-04", "Funds Car", "0.00"],
    ]);
    expect(figures.events.at(-1)).toMatchObject({ amount: "6.00", status: "partial" });
  });

  it("given an item on a date without events, when the forecast runs, then it is listed at its date and the series shows it", () => {
    // Given: Wednesday's item, between two Mondays.
    const budgets = [unallocated("60"), goalF("Car", "50", "1000")];
    // When
    const figures = forecast({
      budgets,
      today: TODAY,
      until: "2027-01-12",
      items: [item("2027-01-06", "100", null, "Salary")],
    });
    // Then
    expect(eventRows(figures)).toEqual([
      ["2027-01-04", "fund", "Car", "50.00", "50.00", "complete", "10.00"],
      ["2027-01-06", "item", null, "100.00", "100.00", "complete", "110.00"],
      ["2027-01-11", "fund", "Car", "50.00", "50.00", "complete", "60.00"],
    ]);
    const unallocatedOn = Object.fromEntries(figures.series.map((p) => [p.date, p.unallocated]));
    expect(unallocatedOn).toMatchObject({
      "2027-01-05": "10.00",
      "2027-01-06": "110.00",
      "2027-01-10": "110.00",
      "2027-01-11": "60.00",
    });
    expect(figures.unallocated.lowest).toEqual({ date: "2027-01-04", balance: "10.00" });
    expect(figures.unallocated.first_negative).toBeNull();
  });

  it("given items on today and on until, when the forecast runs, then both apply", () => {
    // Given
    const budgets = [unallocated("0"), goalF("Car", "50", "1000")];
    // When
    const figures = forecast({
      budgets,
      today: "2027-01-04",
      until: "2027-01-11",
      items: [item("2027-01-04", "50"), item("2027-01-11", "50")],
    });
    // Then
    expect(figures.events.map((e) => [e.date, e.kind, e.status])).toEqual([
      ["2027-01-04", "item", "complete"],
      ["2027-01-04", "fund", "complete"],
      ["2027-01-11", "item", "complete"],
      ["2027-01-11", "fund", "complete"],
    ]);
    expect(figures.unallocated.end).toBe("0.00");
  });
});
