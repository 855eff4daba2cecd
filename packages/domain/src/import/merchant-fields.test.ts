import { describe, expect, it } from "vitest";
import { extractMerchantFields, type MerchantFields, parseCityState } from "./merchant-fields";

const EMPTY: MerchantFields = {
  merchantName: null,
  merchantCity: null,
  merchantRegion: null,
  merchantCountry: null,
  merchantCategory: null,
  merchantCategoryCode: null,
  virtualCardNumber: null,
};

describe("extractMerchantFields", () => {
  it.each<[string, Record<string, unknown>, Partial<MerchantFields>, string[]]>([
    ["an empty record", {}, {}, []],
    ["unrelated keys only", { id: 7, amount: "-1.00" }, {}, []],
    [
      "every key",
      {
        merchant_name: "Whole Foods",
        merchant_information: "AUSTIN, TX",
        merchant_category: "Grocery Stores",
        merchant_category_code: "5411",
        virtual_card_number: "4111",
      },
      {
        merchantName: "Whole Foods",
        merchantCity: "AUSTIN",
        merchantRegion: "TX",
        merchantCountry: "US",
        merchantCategory: "Grocery Stores",
        merchantCategoryCode: "5411",
        virtualCardNumber: "4111",
      },
      [],
    ],
    ["whitespace tidied", { merchant_name: "  Blue   Bottle \n" }, { merchantName: "Blue Bottle" }, []],
    ["blank text is absent", { merchant_name: "   ", merchant_category: "" }, {}, []],
    ["null is absent", { merchant_name: null, merchant_information: null }, {}, []],
    [
      "a name of 128 characters is kept",
      { merchant_name: "n".repeat(128) },
      { merchantName: "n".repeat(128) },
      [],
    ],
    [
      "a name over 128 characters is cut",
      { merchant_name: "n".repeat(200) },
      { merchantName: "n".repeat(128) },
      ["merchant_name was longer than 128 characters and was cut."],
    ],
    [
      "characters, not UTF-16 units, are counted",
      { merchant_name: "😀".repeat(130) },
      { merchantName: "😀".repeat(128) },
      ["merchant_name was longer than 128 characters and was cut."],
    ],
    [
      "merchant_category over 128 is cut",
      { merchant_category: "c".repeat(129) },
      { merchantCategory: "c".repeat(128) },
      ["merchant_category was longer than 128 characters and was cut."],
    ],
    [
      "virtual_card_number over 32 is cut",
      { virtual_card_number: "9".repeat(40) },
      { virtualCardNumber: "9".repeat(32) },
      ["virtual_card_number was longer than 32 characters and was cut."],
    ],
    ["a numeric MCC is read as text", { merchant_category_code: 5812 }, { merchantCategoryCode: "5812" }, []],
    ["an MCC with a leading zero", { merchant_category_code: "0742" }, { merchantCategoryCode: "0742" }, []],
    [
      "a 3-digit MCC is dropped",
      { merchant_category_code: "581" },
      {},
      ['merchant_category_code "581" is not 4 digits; dropped.'],
    ],
    [
      "a 5-digit MCC is dropped",
      { merchant_category_code: 58120 },
      {},
      ['merchant_category_code "58120" is not 4 digits; dropped.'],
    ],
    [
      "letters in the MCC drop it",
      { merchant_category_code: "54A1" },
      {},
      ['merchant_category_code "54A1" is not 4 digits; dropped.'],
    ],
    [
      "a fractional MCC is dropped",
      { merchant_category_code: 5411.5 },
      {},
      ['merchant_category_code "5411.5" is not 4 digits; dropped.'],
    ],
    ["a number as a name", { merchant_name: 7 }, { merchantName: "7" }, []],
    [
      "an object as a name is ignored",
      { merchant_name: { text: "x" } },
      {},
      ["merchant_name is not text; ignored."],
    ],
    [
      "a list as a category is ignored",
      { merchant_category: ["a"] },
      {},
      ["merchant_category is not text; ignored."],
    ],
    [
      "a boolean as a card is ignored",
      { virtual_card_number: true },
      {},
      ["virtual_card_number is not text; ignored."],
    ],
    [
      "an object as the location is ignored",
      { merchant_information: { city: "Austin" } },
      {},
      ["merchant_information is not text; ignored."],
    ],
    [
      "title-case city, lower-case state",
      { merchant_information: "Austin, tx" },
      { merchantCity: "Austin", merchantRegion: "TX", merchantCountry: "US" },
      [],
    ],
    [
      "a non-US region leaves the location empty",
      { merchant_information: "TORONTO, ON" },
      {},
      ['merchant_information "TORONTO, ON" is not "CITY, ST"; location left empty.'],
    ],
    [
      "free text leaves the location empty",
      { merchant_information: "ONLINE" },
      {},
      ['merchant_information "ONLINE" is not "CITY, ST"; location left empty.'],
    ],
    [
      "a long odd location is quoted short",
      { merchant_information: "x".repeat(100) },
      {},
      [`merchant_information "${"x".repeat(40)}…" is not "CITY, ST"; location left empty.`],
    ],
    [
      "a city over 128 characters is cut",
      { merchant_information: `${"C".repeat(130)}, TX` },
      { merchantCity: "C".repeat(128), merchantRegion: "TX", merchantCountry: "US" },
      ["merchant_city was longer than 128 characters and was cut."],
    ],
    [
      "warnings come in key order",
      { merchant_name: "n".repeat(129), merchant_category_code: "1", virtual_card_number: {} },
      { merchantName: "n".repeat(128) },
      [
        "merchant_name was longer than 128 characters and was cut.",
        'merchant_category_code "1" is not 4 digits; dropped.',
        "virtual_card_number is not text; ignored.",
      ],
    ],
  ])("%s", (_name, details, fields, warnings) => {
    expect(extractMerchantFields(details)).toEqual({ fields: { ...EMPTY, ...fields }, warnings });
  });
});

describe("parseCityState", () => {
  it.each<[string, string, ReturnType<typeof parseCityState>]>([
    ["CITY, ST", "AUSTIN, TX", { city: "AUSTIN", region: "TX", country: "US" }],
    ["no space after the comma", "AUSTIN,TX", { city: "AUSTIN", region: "TX", country: "US" }],
    ["space before the comma", "New York , ny", { city: "New York", region: "NY", country: "US" }],
    ["a ZIP code is dropped", "AUSTIN, TX 78701", { city: "AUSTIN", region: "TX", country: "US" }],
    ["ZIP+4", "AUSTIN, TX 78701-1234", { city: "AUSTIN", region: "TX", country: "US" }],
    ["a trailing country", "Seattle, WA, USA", { city: "Seattle", region: "WA", country: "US" }],
    ["DC", "WASHINGTON, DC", { city: "WASHINGTON", region: "DC", country: "US" }],
    [
      "a comma inside the city",
      "ST. LOUIS, PARK, MN",
      { city: "ST. LOUIS, PARK", region: "MN", country: "US" },
    ],
    ["no comma", "AUSTIN TX", null],
    ["a region that is not a US code", "PARIS, FR", null],
    ["a three-letter region", "AUSTIN, TEX", null],
    ["no city", ", TX", null],
    ["empty", "", null],
  ])("%s", (_name, text, expected) => {
    expect(parseCityState(text)).toEqual(expected);
  });
});
