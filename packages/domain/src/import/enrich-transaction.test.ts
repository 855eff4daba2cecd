import { describe, expect, it } from "vitest";
import { type EnrichableRow, enrichTransaction } from "./enrich-transaction";

const row = (values: Partial<EnrichableRow> = {}): EnrichableRow => ({
  details: null,
  description: "WHOLEFDS AUS 10234",
  descriptionUserEdited: false,
  merchantName: null,
  merchantCity: null,
  merchantRegion: null,
  merchantCountry: null,
  merchantCategory: null,
  merchantCategoryCode: null,
  virtualCardNumber: null,
  ...values,
});

const FIRST = {
  merchant_name: "Whole Foods",
  merchant_information: "AUSTIN, TX",
  merchant_category: "Grocery",
  merchant_category_code: "5411",
};
const SECOND = { merchant_name: "Whole Foods Market", merchant_information: "DALLAS, TX" };
// A row as the first details left it.
const enrichedOnce = (values: Partial<EnrichableRow> = {}) =>
  row({
    details: FIRST,
    description: "Whole Foods -- AUSTIN, TX (Grocery)",
    merchantName: "Whole Foods",
    merchantCity: "AUSTIN",
    merchantRegion: "TX",
    merchantCountry: "US",
    merchantCategory: "Grocery",
    merchantCategoryCode: "5411",
    ...values,
  });

describe("enrichTransaction", () => {
  it("fills every column on first enrichment and composes the description", () => {
    expect(enrichTransaction(row(), FIRST)).toEqual({
      values: {
        details: FIRST,
        description: "Whole Foods -- AUSTIN, TX (Grocery)",
        merchantName: "Whole Foods",
        merchantCity: "AUSTIN",
        merchantRegion: "TX",
        merchantCountry: "US",
        merchantCategory: "Grocery",
        merchantCategoryCode: "5411",
        virtualCardNumber: null,
      },
      warnings: [],
    });
  });

  it.each<[string, EnrichableRow, Record<string, unknown>, Partial<Enriched>]>([
    [
      "a user-edited description stays",
      row({ descriptionUserEdited: true, description: "Groceries" }),
      FIRST,
      { description: "Groceries" },
    ],
    [
      "no merchant name: the description stays",
      row(),
      { merchant_information: "AUSTIN, TX" },
      { description: "WHOLEFDS AUS 10234" },
    ],
    [
      "a hand-entered city stays; the empty region and country are filled from CITY, ST",
      row({ merchantCity: "Round Rock" }),
      FIRST,
      {
        merchantCity: "Round Rock",
        merchantRegion: "TX",
        merchantCountry: "US",
        description: "Whole Foods -- Round Rock, TX (Grocery)",
      },
    ],
    [
      "each location column on its own: a hand-entered country stays, city and region are filled",
      row({ merchantCountry: "MX" }),
      FIRST,
      { merchantCity: "AUSTIN", merchantRegion: "TX", merchantCountry: "MX" },
    ],
    [
      "an overwrite replaces the merchant fields the earlier details filled, and keeps their location and the description",
      enrichedOnce(),
      SECOND,
      {
        merchantName: "Whole Foods Market",
        merchantCity: "AUSTIN",
        merchantRegion: "TX",
        merchantCountry: "US",
        merchantCategory: null,
        merchantCategoryCode: null,
        description: "Whole Foods -- AUSTIN, TX (Grocery)",
      },
    ],
    [
      "an overwrite keeps the location when the new record has none",
      enrichedOnce(),
      { merchant_name: "Whole Foods" },
      {
        merchantCity: "AUSTIN",
        merchantRegion: "TX",
        merchantCountry: "US",
        description: "Whole Foods -- AUSTIN, TX (Grocery)",
      },
    ],
    [
      "an overwrite keeps a hand-entered city and the region and country first filled beside it",
      enrichedOnce({ merchantCity: "Round Rock", description: "Whole Foods -- Round Rock, TX (Grocery)" }),
      SECOND,
      {
        merchantCity: "Round Rock",
        merchantRegion: "TX",
        merchantCountry: "US",
        description: "Whole Foods -- Round Rock, TX (Grocery)",
      },
    ],
    [
      "an overwrite keeps a description the first details did not compose",
      enrichedOnce({ description: "Something else" }),
      SECOND,
      { description: "Something else" },
    ],
    [
      "an overwrite composes nothing, even when the first details composed nothing",
      row({ details: { merchant_category: "Grocery" }, merchantCategory: "Grocery" }),
      SECOND,
      { merchantName: "Whole Foods Market", description: "WHOLEFDS AUS 10234" },
    ],
    [
      "an overwrite keeps a user-edited description",
      enrichedOnce({ descriptionUserEdited: true, description: "Weekly shop" }),
      SECOND,
      { description: "Weekly shop" },
    ],
    [
      "an overwrite fills a location the first details left empty",
      row({
        details: { merchant_name: "Whole Foods" },
        merchantName: "Whole Foods",
        description: "Whole Foods",
      }),
      SECOND,
      { merchantCity: "DALLAS", merchantRegion: "TX", merchantCountry: "US" },
    ],
    [
      "stored details that are not a record read as empty",
      row({ details: ["odd"], merchantCity: "AUSTIN" }),
      FIRST,
      { merchantCity: "AUSTIN", merchantRegion: "TX", merchantCountry: "US" },
    ],
  ])("%s", (_name, current, details, expected) => {
    const { values } = enrichTransaction(current, details);
    expect(values).toMatchObject({ details, ...expected });
  });

  describe("the origin's worked examples", () => {
    it("an overwrite re-applies the merchant fields but keeps the city and the description the first enrichment set", () => {
      // Given a row first enriched in Menlo Park
      const first = { merchant_name: "Blue Bottle", merchant_information: "MENLO PARK, CA" };
      const enriched = { ...row(), ...enrichTransaction(row(), first).values };

      // When the scraper's record is applied again, now saying Oakland
      const { values } = enrichTransaction(enriched, {
        merchant_name: "Blue Bottle Coffee",
        merchant_information: "OAKLAND, CA",
        merchant_category: "Coffee Shops",
      });

      // Then the merchant fields are the new record's, the location and the description the first
      // one's: only the first enrichment recomposes the description
      expect(values).toMatchObject({
        merchantName: "Blue Bottle Coffee",
        merchantCategory: "Coffee Shops",
        merchantCity: "MENLO PARK",
        merchantRegion: "CA",
        merchantCountry: "US",
        description: "Blue Bottle -- MENLO PARK, CA",
      });
    });

    it("a city the user entered stays, and its empty region and country are filled from CITY, ST", () => {
      // Given a row whose user entered the city only
      const entered = row({ merchantCity: "Palo Alto" });

      // When the scraper's record says "MENLO PARK, CA"
      const { values } = enrichTransaction(entered, {
        merchant_name: "Blue Bottle",
        merchant_information: "MENLO PARK, CA",
      });

      // Then the city is the user's, region and country the record's
      expect(values).toMatchObject({
        merchantCity: "Palo Alto",
        merchantRegion: "CA",
        merchantCountry: "US",
      });
    });
  });

  it("passes the extraction warnings on", () => {
    expect(enrichTransaction(row(), { merchant_category_code: "12" }).warnings).toEqual([
      'merchant_category_code "12" is not 4 digits; dropped.',
    ]);
  });
});

type Enriched = ReturnType<typeof enrichTransaction>["values"];
