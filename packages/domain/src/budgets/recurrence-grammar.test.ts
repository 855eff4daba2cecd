import { describe, expect, it } from "vitest";
import { checkFundingSchedule, checkRecurrenceSchedule } from "./recurrence-grammar";

describe("recurrence_schedule grammar", () => {
  it.each([
    ["FREQ=WEEKLY", "RRULE:FREQ=WEEKLY"],
    ["RRULE:FREQ=MONTHLY", "RRULE:FREQ=MONTHLY"],
    ["rrule:freq=yearly;interval=2", "RRULE:freq=yearly;interval=2"],
    ["RRULE:FREQ=WEEKLY;INTERVAL=2", "RRULE:FREQ=WEEKLY;INTERVAL=2"],
    ["DTSTART:20260115\nRRULE:FREQ=MONTHLY", "DTSTART:20260115\nRRULE:FREQ=MONTHLY"],
    ["RRULE:FREQ=MONTHLY\r\nDTSTART:20260115T000000Z", "DTSTART:20260115T000000Z\nRRULE:FREQ=MONTHLY"],
    [
      "DTSTART;TZID=Europe/Berlin:20260101T090000\nRRULE:FREQ=YEARLY",
      "DTSTART;TZID=Europe/Berlin:20260101T090000\nRRULE:FREQ=YEARLY",
    ],
    ["DTSTART;VALUE=DATE:20260101\nFREQ=YEARLY", "DTSTART;VALUE=DATE:20260101\nRRULE:FREQ=YEARLY"],
  ])("accepts %j", (text, stored) => {
    expect(checkRecurrenceSchedule(text, "2026-03-15")).toEqual({ ok: true, value: stored });
  });

  it.each([
    ["FREQ=DAILY", /FREQ must be WEEKLY, MONTHLY or YEARLY, not DAILY/],
    ["FREQ=HOURLY", /not HOURLY/],
    ["FREQ=MONTHLY;BYMONTHDAY=1", /BYMONTHDAY \(BY\* parts\) is not allowed/],
    ["FREQ=WEEKLY;BYDAY=MO", /BYDAY \(BY\* parts\) is not allowed/],
    ["FREQ=YEARLY;BYMONTH=3", /BYMONTH \(BY\* parts\) is not allowed/],
    ["FREQ=WEEKLY;BYSETPOS=1", /BYSETPOS/],
    ["FREQ=MONTHLY;COUNT=3", /COUNT is not allowed/],
    ["FREQ=MONTHLY;UNTIL=20261231", /UNTIL is not allowed/],
    ["FREQ=WEEKLY;WKST=MO", /WKST is not allowed/],
    ["RRULE:FREQ=MONTHLY\nEXDATE:20260201", /Exception rules and dates \(EXDATE\)/],
    ["RRULE:FREQ=MONTHLY\nRDATE:20260201", /\(RDATE\)/],
    ["RRULE:FREQ=MONTHLY\nEXRULE:FREQ=YEARLY", /\(EXRULE\)/],
    ["RRULE:FREQ=MONTHLY\nRRULE:FREQ=WEEKLY", /single RRULE/],
    ["FREQ=MONTHLY;INTERVAL=0", /invalid INTERVAL value '0'/],
    ["FREQ=MONTHLY;INTERVAL=-1", /invalid INTERVAL value '-1'/],
    ["FREQ=MONTHLY;INTERVAL=x", /invalid INTERVAL/],
    ["FREQ=MONTHLY;FOO=1", /unknown part 'FOO'/],
    ["FREQ=MONTHLY;FREQ=WEEKLY", /repeats FREQ/],
    ["INTERVAL=2", /needs a FREQ/],
    ["DTSTART:20260101", /An RRULE is required/],
    ["DTSTART:20260230\nRRULE:FREQ=MONTHLY", /DTSTART '20260230' is not a valid date/],
    ["DTSTART;TZID=Mars/Base:20260101T000000\nRRULE:FREQ=MONTHLY", /unknown time zone 'Mars\/Base'/],
    ["DTSTART:20260101\nDTSTART:20260201\nRRULE:FREQ=MONTHLY", /Only one DTSTART/],
    ["SUMMARY:rent\nRRULE:FREQ=MONTHLY", /Unknown schedule line 'SUMMARY'/],
    ["monthly", /Cannot read the line 'monthly'/],
    ["", /empty/],
    ["   \n  ", /empty/],
    ["DTSTART:19000101\nRRULE:FREQ=WEEKLY", /10 years before today/],
  ])("refuses %j, naming the problem", (text, message) => {
    const result = checkRecurrenceSchedule(text, "2026-03-15");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });
});

describe("funding_schedule", () => {
  it.each([
    ["FREQ=WEEKLY", "DTSTART:20260315\nRRULE:FREQ=WEEKLY"],
    ["RRULE:FREQ=DAILY;INTERVAL=3", "DTSTART:20260315\nRRULE:FREQ=DAILY;INTERVAL=3"],
    ["RRULE:FREQ=MONTHLY;BYMONTHDAY=1,15", "DTSTART:20260315\nRRULE:FREQ=MONTHLY;BYMONTHDAY=1,15"],
    [
      "RRULE:FREQ=MONTHLY;COUNT=6\nEXDATE:20260401",
      "DTSTART:20260315\nRRULE:FREQ=MONTHLY;COUNT=6\nEXDATE:20260401",
    ],
    [
      "DTSTART:20260101T000000Z\nRRULE:FREQ=WEEKLY;BYDAY=FR",
      "DTSTART:20260101T000000Z\nRRULE:FREQ=WEEKLY;BYDAY=FR",
    ],
    ["RRULE:FREQ=WEEKLY\nDTSTART:20260101", "DTSTART:20260101\nRRULE:FREQ=WEEKLY"],
    ["DTSTART:20160315\nRRULE:FREQ=WEEKLY", "DTSTART:20160315\nRRULE:FREQ=WEEKLY"],
    ["DTSTART:20990101\nRRULE:FREQ=YEARLY", "DTSTART:20990101\nRRULE:FREQ=YEARLY"],
    [
      "RRULE:FREQ=DAILY\nEXRULE:FREQ=WEEKLY;BYDAY=SA,SU\nRDATE;VALUE=DATE:20260401,20260402",
      "DTSTART:20260315\nRRULE:FREQ=DAILY\nEXRULE:FREQ=WEEKLY;BYDAY=SA,SU\nRDATE;VALUE=DATE:20260401,20260402",
    ],
  ])("accepts %j, anchored when it has no DTSTART", (text, stored) => {
    expect(checkFundingSchedule(text, "2026-03-15")).toEqual({ ok: true, value: stored });
  });

  it.each([
    ["FREQ=FORTNIGHTLY", /invalid FREQ/],
    ["FREQ=WEEKLY;INTERVAL=-1", /invalid INTERVAL/],
    ["FREQ=WEEKLY;COUNT=x", /invalid COUNT/],
    ["FREQ=DAILY;COUNT=1001", /invalid COUNT value '1001'/],
    ["FREQ=WEEKLY;COUNT=2;UNTIL=20270101", /both COUNT and UNTIL/],
    ["FREQ=WEEKLY;BYDAY=XX", /invalid BYDAY/],
    ["FREQ=MONTHLY;BYMONTHDAY=32", /invalid BYMONTHDAY/],
    ["RRULE:FREQ=WEEKLY\nEXDATE:2026", /EXDATE '2026' is not a list of valid dates/],
    ["every friday", /Cannot read/],
    ["FREQ=HOURLY", /at most once a day: FREQ must be DAILY or longer, not HOURLY/],
    ["RRULE:FREQ=DAILY\nRRULE:FREQ=MINUTELY", /not MINUTELY/],
    // Anything that fires more than once a day, however spelled (issue 14).
    [
      "DTSTART:20260128\nRRULE:FREQ=DAILY;BYHOUR=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23",
      /at most once a day: BYHOUR is not allowed \(RRULE\)/,
    ],
    ["FREQ=WEEKLY;BYMINUTE=0,30", /BYMINUTE is not allowed/],
    ["FREQ=MONTHLY;BYSECOND=0", /BYSECOND is not allowed/],
    ["FREQ=DAILY;BYHOUR=9", /BYHOUR is not allowed/],
    ["RRULE:FREQ=DAILY\nEXRULE:FREQ=SECONDLY", /not SECONDLY \(EXRULE\)/],
    ["RRULE:FREQ=DAILY\nEXRULE:FREQ=WEEKLY;BYHOUR=3", /BYHOUR is not allowed \(EXRULE\)/],
    ["RRULE:FREQ=WEEKLY\nRDATE:20260401T100000Z", /RDATE takes dates \(YYYYMMDD\), not times/],
    ["RRULE:FREQ=WEEKLY\nEXDATE;TZID=Europe/Berlin:20260401T100000", /EXDATE takes dates/],
    ["RRULE:FREQ=WEEKLY\nRDATE;VALUE=PERIOD:20260401", /RDATE takes dates/],
    // DTSTART at most ten years before today.
    ["DTSTART:19000101\nRRULE:FREQ=DAILY", /not be more than 10 years before today \(2026-03-15\)/],
    ["DTSTART:20160314\nRRULE:FREQ=WEEKLY", /10 years before today/],
    ["DTSTART;TZID=Europe/Berlin:20160314T090000\nRRULE:FREQ=WEEKLY", /10 years before today/],
    // Size bounds.
    [`RRULE:FREQ=WEEKLY\n${"EXDATE:20260401\n".repeat(10)}`, /at most 10 lines/],
    [`RRULE:FREQ=WEEKLY\nEXDATE:${Array(101).fill("20260401").join(",")}`, /at most 100 dates/],
    [`RRULE:FREQ=WEEKLY\n${"EXRULE:FREQ=YEARLY\n".repeat(4)}`, /at most 4 rules/],
    [`RRULE:FREQ=WEEKLY\nEXDATE:${Array(120).fill("20260401").join(",")}`, /at most 1000 characters/],
  ])("refuses %j", (text, message) => {
    const result = checkFundingSchedule(text, "2026-03-15");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });
});
