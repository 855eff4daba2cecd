import { describe, expect, it } from "vitest";
import {
  choiceListField,
  dateField,
  dateTimeFilter,
  dateTimeInput,
  parseDateTimeText,
  readDateTimeText,
  uuidField,
} from "./fields";

const FORMAT = "Must be an ISO 8601 date-time or a date, YYYY-MM-DD.";
const RANGE = "Must be a date between 0100-01-02 and 9999-12-29.";
const messages = (result: { error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message);

describe("parseDateTimeText", () => {
  it.each([
    ["2024-02-29", "2024-02-29T00:00:00.000Z"],
    ["2024-03-01T10:15", "2024-03-01T10:15:00.000Z"],
    ["2024-03-01 10:15:30.123456", "2024-03-01T10:15:30.123Z"],
    ["2024-03-01T10:15:30+02:00", "2024-03-01T08:15:30.000Z"],
    ["2024-03-01T10:15:30-0130", "2024-03-01T11:45:30.000Z"],
    ["0100-01-02", "0100-01-02T00:00:00.000Z"],
    ["0100-01-02T00:30:00-01:00", "0100-01-02T01:30:00.000Z"],
    ["9999-12-29T23:59:59.999Z", "9999-12-29T23:59:59.999Z"],
  ])("reads %s", (text, iso) => {
    expect(parseDateTimeText(text)?.toISOString()).toBe(iso);
  });

  it.each([
    "2024-02-30",
    "2023-02-29",
    "2024-13-01",
    "2024-00-10",
    "2024-04-31",
    "2024-01-01T24:00",
    "2024-01-01T10:60",
    "2024-01-01T10:00:60Z",
    "2024-01-01T10:00:00+24:00",
    "0000-01-01",
    "0099-12-31T23:59:59Z",
    "0100-01-01",
    "0100-01-02T00:30:00+01:00",
    "9999-12-30",
    "9999-12-29T23:59:59-14:00",
    "not a date",
  ])("refuses %s", (text) => {
    expect(parseDateTimeText(text)).toBeNull();
  });
});

describe("readDateTimeText", () => {
  it("tells a bare date and a local time from a text with an offset", () => {
    expect(readDateTimeText("2025-10-05")).toEqual({
      day: "2025-10-05",
      bare: true,
      time: [0, 0, 0, 0],
      offsetMinutes: null,
    });
    expect(readDateTimeText("2025-10-05T10:15:30.5")).toMatchObject({
      bare: false,
      time: [10, 15, 30, 500],
      offsetMinutes: null,
    });
    expect(readDateTimeText("2025-10-05T10:15Z")?.offsetMinutes).toBe(0);
    expect(readDateTimeText("2025-10-05T10:15-05:30")?.offsetMinutes).toBe(-330);
  });
});

describe("date-time fields", () => {
  it("tell an impossible date from one out of range", () => {
    expect(messages(dateTimeInput().safeParse("2024-02-30"))).toEqual([FORMAT]);
    expect(messages(dateTimeInput().safeParse("9999-12-31T23:59:59-14:00"))).toEqual([RANGE]);
    expect(messages(dateTimeFilter("").safeParse("0000-01-01"))).toEqual([RANGE]);
    expect(dateTimeFilter("").safeParse(" 9999-12-29 ").data).toBe("9999-12-29");
  });

  it("dateField keeps to real days within the range", () => {
    expect(dateField().safeParse("9999-12-29").success).toBe(true);
    expect(messages(dateField().safeParse("0100-01-01"))).toEqual([RANGE]);
    expect(messages(dateField().safeParse("9999-12-30"))).toEqual([RANGE]);
    expect(messages(dateField().safeParse("2024-02-30"))).toEqual(["Must be a date, YYYY-MM-DD."]);
  });
});

describe("uuidField", () => {
  it("lower-cases a valid UUID and refuses anything else", () => {
    expect(uuidField().parse("A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11")).toBe(
      "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
    );
    expect(messages(uuidField().safeParse("A0EEBC99"))).toEqual(["Must be a valid UUID."]);
  });
});

describe("choiceListField", () => {
  const field = choiceListField(["A", "B"]);

  it("takes one value or a list of them", () => {
    expect(field.parse("A")).toEqual(["A"]);
    expect(field.parse(["B", "A"])).toEqual(["B", "A"]);
  });

  it("reports each unknown value on the field itself", () => {
    const result = field.safeParse(["A", "C", "a"]);
    expect(messages(result)).toEqual([
      '"C" is not a valid choice; use A, B.',
      '"a" is not a valid choice; use A, B.',
    ]);
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([[], []]);
  });
});
