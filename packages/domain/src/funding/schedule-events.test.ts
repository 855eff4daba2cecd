import rrule from "rrule";
import { describe, expect, it } from "vitest";
import { addDays, eventDates, firstEventFrom, scheduleStepsWalked, WALK_DAYS } from "./schedule-events";

const STEPS_PER_RULE = 2 * (WALK_DAYS + 1);

// 2027-01-04 is a Monday.
const WEEKLY = "DTSTART:20270104\nRRULE:FREQ=WEEKLY";
const MONTHLY = "DTSTART:20270115\nRRULE:FREQ=MONTHLY";

describe("eventDates", () => {
  it.each([
    [
      "weekly, a whole month",
      WEEKLY,
      "2027-01-01",
      "2027-01-31",
      ["2027-01-04", "2027-01-11", "2027-01-18", "2027-01-25"],
    ],
    [
      "weekly, both bounds inclusive",
      WEEKLY,
      "2027-01-04",
      "2027-01-18",
      ["2027-01-04", "2027-01-11", "2027-01-18"],
    ],
    ["weekly, a single day that is an event", WEEKLY, "2027-01-11", "2027-01-11", ["2027-01-11"]],
    ["weekly, a single day that is not an event", WEEKLY, "2027-01-12", "2027-01-12", []],
    ["weekly, a range between two events", WEEKLY, "2027-01-05", "2027-01-10", []],
    ["weekly, a range before DTSTART", WEEKLY, "2026-12-01", "2027-01-03", []],
    [
      "weekly across the year end",
      "DTSTART:20271220\nRRULE:FREQ=WEEKLY",
      "2027-12-25",
      "2028-01-10",
      ["2027-12-27", "2028-01-03", "2028-01-10"],
    ],
    [
      "every second week",
      "DTSTART:20270104\nRRULE:FREQ=WEEKLY;INTERVAL=2",
      "2027-01-01",
      "2027-02-28",
      ["2027-01-04", "2027-01-18", "2027-02-01", "2027-02-15"],
    ],
    [
      "monthly",
      MONTHLY,
      "2027-01-01",
      "2027-04-30",
      ["2027-01-15", "2027-02-15", "2027-03-15", "2027-04-15"],
    ],
    ["monthly, from mid-range", MONTHLY, "2027-02-16", "2027-04-15", ["2027-03-15", "2027-04-15"]],
    [
      "monthly on the 31st skips shorter months (RFC 5545)",
      "DTSTART:20270131\nRRULE:FREQ=MONTHLY",
      "2027-01-01",
      "2027-06-30",
      ["2027-01-31", "2027-03-31", "2027-05-31"],
    ],
    [
      "yearly",
      "DTSTART:20270301\nRRULE:FREQ=YEARLY",
      "2027-01-01",
      "2029-12-31",
      ["2027-03-01", "2028-03-01", "2029-03-01"],
    ],
    [
      "DTSTART with a UTC time in the morning",
      "DTSTART:20270104T090000Z\nRRULE:FREQ=WEEKLY",
      "2027-01-01",
      "2027-01-17",
      ["2027-01-04", "2027-01-11"],
    ],
    [
      "DTSTART with a UTC time just before midnight",
      "DTSTART:20270104T233000Z\nRRULE:FREQ=WEEKLY",
      "2027-01-04",
      "2027-01-11",
      ["2027-01-04", "2027-01-11"],
    ],
    [
      "DTSTART with a floating time",
      "DTSTART:20270104T233000\nRRULE:FREQ=WEEKLY",
      "2027-01-01",
      "2027-01-17",
      ["2027-01-04", "2027-01-11"],
    ],
    [
      "DTSTART with a TZID, in the morning",
      "DTSTART;TZID=Europe/Berlin:20270104T090000\nRRULE:FREQ=WEEKLY",
      "2027-01-01",
      "2027-01-17",
      ["2027-01-04", "2027-01-11"],
    ],
  ])("%s", (_, text, from, through, expected) => {
    expect(eventDates(text, from, through)).toEqual(expected);
  });

  // The event's date is the wall-clock date of DTSTART in its TZID, whatever the process's zone.
  it.each([
    [
      "Europe/Berlin, just after local midnight",
      "DTSTART;TZID=Europe/Berlin:20270104T003000\nRRULE:FREQ=WEEKLY",
    ],
    ["America/New_York, in the evening", "DTSTART;TZID=America/New_York:20270104T200000\nRRULE:FREQ=WEEKLY"],
    ["Pacific/Auckland, in the morning", "DTSTART;TZID=Pacific/Auckland:20270104T073000\nRRULE:FREQ=WEEKLY"],
  ])("DTSTART with a TZID near midnight UTC (%s) keeps the local date", (_, text) => {
    expect(eventDates(text, "2027-01-01", "2027-01-17")).toEqual(["2027-01-04", "2027-01-11"]);
  });

  it.each([
    [
      "twice a day",
      "DTSTART:20270104T090000Z\nRRULE:FREQ=DAILY;BYHOUR=9,18",
      "2027-01-04",
      "2027-01-05",
      ["2027-01-04", "2027-01-05"],
    ],
    [
      "a weekly rule plus an extra date on the same day",
      "DTSTART:20270104T080000Z\nRRULE:FREQ=WEEKLY\nRDATE:20270111T200000Z",
      "2027-01-01",
      "2027-01-17",
      ["2027-01-04", "2027-01-11"],
    ],
  ])("several instants on one day give the date once (%s)", (_, text, from, through, expected) => {
    expect(eventDates(text, from, through)).toEqual(expected);
  });

  it.each([
    ["empty text", "", "2027-01-01", "2027-12-31"],
    ["from after through", WEEKLY, "2027-01-12", "2027-01-11"],
    ["from after through, both events", WEEKLY, "2027-01-18", "2027-01-04"],
  ])("is empty for %s", (_, text, from, through) => {
    expect(eventDates(text, from, through)).toEqual([]);
  });

  it("gives the same answer when asked twice (parsed schedules are cached)", () => {
    const first = eventDates(WEEKLY, "2027-01-01", "2027-03-31");
    expect(first).toHaveLength(13);
    expect(eventDates(WEEKLY, "2027-01-01", "2027-03-31")).toEqual(first);
    expect(eventDates(WEEKLY, "2027-02-01", "2027-02-28")).toEqual([
      "2027-02-01",
      "2027-02-08",
      "2027-02-15",
      "2027-02-22",
    ]);
  });
});

describe("the bounded walk", () => {
  // What rrule itself answers, walking from DTSTART without bounds (only for legitimate rules).
  const unbounded = (text: string, from: string, through: string) => [
    ...new Set(
      rrule
        .rrulestr(text, { forceset: true })
        .between(new Date(`${from}T00:00:00Z`), new Date(`${through}T23:59:59.999Z`), true)
        .map((instant) => instant.toISOString().slice(0, 10)),
    ),
  ];

  it.each([
    "DTSTART:20180104T090000Z\nRRULE:FREQ=DAILY;INTERVAL=3",
    "DTSTART:20180104\nRRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR;WKST=SU",
    "DTSTART:20180111\nRRULE:FREQ=WEEKLY;INTERVAL=3",
    "DTSTART:20180107\nRRULE:FREQ=WEEKLY;INTERVAL=2;WKST=SU",
    "DTSTART:20180131\nRRULE:FREQ=MONTHLY",
    "DTSTART:20180115\nRRULE:FREQ=MONTHLY;INTERVAL=5",
    "DTSTART:20180101\nRRULE:FREQ=MONTHLY;BYMONTHDAY=-1",
    "DTSTART:20180101\nRRULE:FREQ=MONTHLY;BYDAY=-1FR",
    "DTSTART:20180101\nRRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
    "DTSTART:20180101\nRRULE:FREQ=YEARLY;BYWEEKNO=1;BYDAY=MO",
    "DTSTART:20160229\nRRULE:FREQ=YEARLY",
    "DTSTART:20160101\nRRULE:FREQ=YEARLY;INTERVAL=3;BYMONTH=2;BYMONTHDAY=29",
    "DTSTART:20180101\nRRULE:FREQ=YEARLY;BYYEARDAY=100,-1",
    "DTSTART:20180101\nRRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29",
    "DTSTART:20180101\nRRULE:FREQ=WEEKLY;UNTIL=20300101",
    "DTSTART:20180101\nRRULE:FREQ=WEEKLY;COUNT=600",
    "DTSTART:20180101\nRRULE:FREQ=MONTHLY;BYMONTHDAY=1,15\nEXDATE:20290115\nRDATE:20290120",
  ])("starts late and still answers as rrule does (%j)", (text) => {
    for (const [from, through] of [
      ["2017-06-01", "2018-03-01"],
      ["2028-12-30", "2029-03-02"],
      ["2029-01-15", "2033-01-15"],
    ] as const) {
      expect(eventDates(text, from, through), `${from}..${through}`).toEqual(unbounded(text, from, through));
    }
  });

  it.each([
    ["a rule that never matches (rrule alone spins to the year 9999)", "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30"],
    ["the same as an exception rule", "FREQ=DAILY\nEXRULE:FREQ=WEEKLY;BYMONTH=4;BYMONTHDAY=31"],
    ["a DTSTART in 1900", "FREQ=DAILY"],
    [
      "a stored second-by-second rule",
      "FREQ=DAILY;BYHOUR=0,1,2,3,4,5,6,7,8,9,10,11;BYMINUTE=0,1,2,3,4,5;BYSECOND=0,1,2",
    ],
    ["a COUNT rule from 1900", "FREQ=DAILY;COUNT=1000"],
    ["a COUNT rule from 1900 that never matches", "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30;COUNT=5"],
  ])("stays within its bounds for %s", (_, rule) => {
    const text = `DTSTART:${rule.includes("1900") || rule.includes("COUNT") ? "19000101" : "20160101"}\nRRULE:${rule}`;
    const before = scheduleStepsWalked();
    eventDates(text, "2026-01-01", "2026-12-31");
    firstEventFrom(text, "2026-06-01");
    eventDates(text, "2026-01-01", "2100-01-01");
    // Each rule of a question steps through at most 11,001 periods and 11,001 instants (decision
    // 0022), whatever the text; unbounded, the first case alone steps through millions.
    expect(scheduleStepsWalked() - before).toBeLessThanOrEqual(2 * STEPS_PER_RULE);
  });

  it.each([
    ["a sub-daily rule", "DTSTART:20260101\nRRULE:FREQ=HOURLY;INTERVAL=8"],
    ["a sub-daily exception rule", "DTSTART:20260101\nRRULE:FREQ=DAILY\nEXRULE:FREQ=SECONDLY"],
    ["text the line parser refuses", "DTSTART:20260101\nRRULE:FREQ=DAILY;INTERVAL=-1"],
    ["a COUNT past 1,000", "DTSTART:19000101\nRRULE:FREQ=DAILY;COUNT=999999"],
  ])("finds no event in %s (stored past the grammar)", (_, text) => {
    expect(eventDates(text, "2026-01-01", "2026-12-31")).toEqual([]);
    expect(firstEventFrom(text, "2026-01-01")).toBeNull();
  });

  it("reads time parts and timed extra dates by their date", () => {
    const text = "DTSTART:20260105\nRRULE:FREQ=WEEKLY;BYHOUR=9,18;BYMINUTE=0,30\nRDATE:20260107T120000Z";
    expect(eventDates(text, "2026-01-01", "2026-01-13")).toEqual(["2026-01-05", "2026-01-07", "2026-01-12"]);
  });
});

describe("firstEventFrom", () => {
  it.each([
    ["from an event date: that date", WEEKLY, "2027-01-11", "2027-01-11"],
    ["from the day after an event: the next one", WEEKLY, "2027-01-12", "2027-01-18"],
    ["from before DTSTART: DTSTART", WEEKLY, "2026-11-30", "2027-01-04"],
    ["across the month end", WEEKLY, "2027-01-26", "2027-02-01"],
    ["monthly, from mid-month", MONTHLY, "2027-01-16", "2027-02-15"],
    [
      "monthly on the 31st, from February",
      "DTSTART:20270131\nRRULE:FREQ=MONTHLY",
      "2027-02-01",
      "2027-03-31",
    ],
    [
      "with a UTC time late in the day",
      "DTSTART:20270104T233000Z\nRRULE:FREQ=WEEKLY",
      "2027-01-05",
      "2027-01-11",
    ],
    [
      "with a TZID near midnight UTC: the local date",
      "DTSTART;TZID=Europe/Berlin:20270104T003000\nRRULE:FREQ=WEEKLY",
      "2027-01-01",
      "2027-01-04",
    ],
    [
      "after the last event of a finite schedule: null",
      "DTSTART:20270104\nRRULE:FREQ=WEEKLY;COUNT=2",
      "2027-01-12",
      null,
    ],
    ["empty text: null", "", "2027-01-01", null],
  ])("%s", (_, text, from, expected) => {
    expect(firstEventFrom(text, from)).toBe(expected);
  });
});

describe("addDays", () => {
  it.each([
    ["2027-01-04", 0, "2027-01-04"],
    ["2027-01-04", 1, "2027-01-05"],
    ["2027-01-31", 1, "2027-02-01"],
    ["2027-02-28", 1, "2027-03-01"],
    ["2028-02-28", 1, "2028-02-29"],
    ["2028-02-29", 1, "2028-03-01"],
    ["2027-04-30", 1, "2027-05-01"],
    ["2027-12-31", 1, "2028-01-01"],
    ["2027-12-25", 10, "2028-01-04"],
    ["2027-01-01", 365, "2028-01-01"],
    ["2028-01-01", 366, "2029-01-01"],
    ["2027-03-01", -1, "2027-02-28"],
    ["2028-03-01", -1, "2028-02-29"],
    ["2027-01-01", -1, "2026-12-31"],
    ["2027-01-04", -28, "2026-12-07"],
    // Summer time does not shift a calendar date.
    ["2027-03-27", 2, "2027-03-29"],
    ["2027-10-30", 2, "2027-11-01"],
  ])("%s %+i days → %s", (date, days, expected) => {
    expect(addDays(date, days)).toBe(expected);
  });
});
