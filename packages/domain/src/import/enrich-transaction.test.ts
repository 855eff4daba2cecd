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
  merchantAddress: null,
  merchantLatitude: null,
  merchantLongitude: null,
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
      "a hand-entered city keeps the whole location and shows in the description",
      row({ merchantCity: "Round Rock" }),
      FIRST,
      {
        merchantCity: "Round Rock",
        merchantRegion: null,
        merchantCountry: null,
        description: "Whole Foods -- Round Rock (Grocery)",
      },
    ],
    [
      "hand-entered coordinates keep the location",
      row({ merchantLatitude: "30.267200" }),
      FIRST,
      { merchantCity: null, merchantRegion: null, merchantCountry: null },
    ],
    [
      "a hand-entered address keeps the location",
      row({ merchantAddress: "525 N Lamar Blvd" }),
      FIRST,
      { merchantCity: null, merchantRegion: null, merchantCountry: null },
    ],
    [
      "an overwrite replaces what the earlier details filled, description included",
      enrichedOnce(),
      SECOND,
      {
        merchantName: "Whole Foods Market",
        merchantCity: "DALLAS",
        merchantCategory: null,
        merchantCategoryCode: null,
        description: "Whole Foods Market -- DALLAS, TX",
      },
    ],
    [
      "an overwrite clears a location the new record lacks",
      enrichedOnce(),
      { merchant_name: "Whole Foods" },
      { merchantCity: null, merchantRegion: null, merchantCountry: null, description: "Whole Foods" },
    ],
    [
      "an overwrite keeps a hand-entered location",
      enrichedOnce({
        merchantCity: "Round Rock",
        merchantRegion: null,
        merchantCountry: null,
        description: "Whole Foods -- Round Rock (Grocery)",
      }),
      SECOND,
      {
        merchantCity: "Round Rock",
        merchantRegion: null,
        merchantCountry: null,
        description: "Whole Foods Market -- Round Rock",
      },
    ],
    [
      "an overwrite keeps a description the first details did not compose",
      enrichedOnce({ description: "Something else" }),
      SECOND,
      { description: "Something else" },
    ],
    [
      "an overwrite composes when the first details composed nothing",
      row({ details: { merchant_category: "Grocery" }, merchantCategory: "Grocery" }),
      SECOND,
      { description: "Whole Foods Market -- DALLAS, TX" },
    ],
    [
      "an overwrite keeps a user-edited description",
      enrichedOnce({ descriptionUserEdited: true, description: "Weekly shop" }),
      SECOND,
      { description: "Weekly shop" },
    ],
    [
      "stored details that are not a record read as empty",
      row({ details: ["odd"], merchantCity: "AUSTIN" }),
      FIRST,
      { merchantCity: "AUSTIN", merchantRegion: null, merchantCountry: null },
    ],
  ])("%s", (_name, current, details, expected) => {
    const { values } = enrichTransaction(current, details);
    expect(values).toMatchObject({ details, ...expected });
  });

  it("passes the extraction warnings on", () => {
    expect(enrichTransaction(row(), { merchant_category_code: "12" }).warnings).toEqual([
      'merchant_category_code "12" is not 4 digits; dropped.',
    ]);
  });
});

type Enriched = ReturnType<typeof enrichTransaction>["values"];
