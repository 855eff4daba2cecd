import { describe, expect, it } from "vitest";
import { composeEnrichedDescription, type DescriptionParts } from "./enriched-description";

const parts = (values: Partial<DescriptionParts>): DescriptionParts => ({
  merchantName: null,
  merchantCity: null,
  merchantRegion: null,
  merchantCategory: null,
  ...values,
});

describe("composeEnrichedDescription", () => {
  it.each<[string, Partial<DescriptionParts>, string | null]>([
    [
      "every part",
      {
        merchantName: "Whole Foods",
        merchantCity: "AUSTIN",
        merchantRegion: "TX",
        merchantCategory: "Grocery",
      },
      "Whole Foods -- AUSTIN, TX (Grocery)",
    ],
    [
      "no category",
      { merchantName: "Whole Foods", merchantCity: "AUSTIN", merchantRegion: "TX" },
      "Whole Foods -- AUSTIN, TX",
    ],
    ["no location", { merchantName: "Whole Foods", merchantCategory: "Grocery" }, "Whole Foods (Grocery)"],
    ["the name alone", { merchantName: "Whole Foods" }, "Whole Foods"],
    ["a city without a region", { merchantName: "Cafe", merchantCity: "Paris" }, "Cafe -- Paris"],
    ["a region without a city", { merchantName: "Cafe", merchantRegion: "TX" }, "Cafe -- TX"],
    [
      "no name: nothing to compose",
      { merchantCity: "AUSTIN", merchantRegion: "TX", merchantCategory: "Grocery" },
      null,
    ],
    ["nothing at all", {}, null],
    [
      "empty text counts as missing",
      { merchantName: "Cafe", merchantCity: "", merchantCategory: "" },
      "Cafe",
    ],
  ])("%s", (_name, values, expected) => {
    expect(composeEnrichedDescription(parts(values))).toBe(expected);
  });
});
