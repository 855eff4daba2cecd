/**
 * The merchant columns a provider's details record fills, read without trusting its types: details
 * are any JSON, so a number where text is expected is read as its decimal text, and anything else
 * that is not text (an object, a list, a boolean) is ignored with a warning. Nothing here throws.
 */
export interface MerchantFields {
  merchantName: string | null;
  merchantCity: string | null;
  merchantRegion: string | null;
  merchantCountry: string | null;
  merchantCategory: string | null;
  merchantCategoryCode: string | null;
  virtualCardNumber: string | null;
}

export interface MerchantExtraction {
  fields: MerchantFields;
  warnings: string[];
}

// Column lengths in packages/db/src/schema/transactions.ts (varchar counts characters).
const LIMITS = {
  merchant_name: 128,
  merchant_category: 128,
  virtual_card_number: 32,
  merchant_city: 128,
  merchant_region: 64,
} as const;

// US states, DC, territories and the military "states": the ST of "CITY, ST" must be one of them,
// so "TORONTO, ON" or "PARIS, FR" are not taken for American places.
const US_REGIONS = new Set(
  (
    "AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC " +
    "ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC PR GU VI AS MP UM AA AE AP"
  ).split(" "),
);

// "CITY, ST", optionally followed by a ZIP code and/or ", US" / ", USA" (both dropped).
const CITY_STATE = /^(.+?)\s*,\s*([A-Za-z]{2})(?:\s+\d{5}(?:-\d{4})?)?(?:\s*,\s*USA?)?$/i;
const MCC = /^\d{4}$/;

/** Trims and collapses whitespace; the empty string reads as absent. */
const tidy = (text: string): string | null => text.trim().replace(/\s+/g, " ") || null;

/** A value quoted in a warning, shortened: warnings echo the input, not store it. */
const quote = (text: string): string => {
  const characters = Array.from(text);
  return `"${characters.length > 40 ? `${characters.slice(0, 40).join("")}…` : text}"`;
};

/** Text of a details value: strings tidied, finite numbers as decimal text, null/absent as null. */
function readText(details: Record<string, unknown>, key: string, warnings: string[]): string | null {
  const value = details[key];
  if (value === undefined || value === null) return null;
  if (typeof value === "string") return tidy(value);
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  warnings.push(`${key} is not text; ignored.`);
  return null;
}

/** Cut to `max` characters (code points, as varchar counts), with a warning when anything went. */
function fit(value: string | null, key: keyof typeof LIMITS, warnings: string[]): string | null {
  if (value === null) return null;
  const max = LIMITS[key];
  const characters = Array.from(value);
  if (characters.length <= max) return value;
  warnings.push(`${key} was longer than ${max} characters and was cut.`);
  return characters.slice(0, max).join("").trimEnd();
}

interface Location {
  city: string;
  region: string;
  country: string;
}

/** "CITY, ST" with a US state code: city as written, region upper-cased, country US; else null. */
export function parseCityState(text: string): Location | null {
  const match = CITY_STATE.exec(text);
  const city = match?.[1] ? tidy(match[1]) : null;
  const region = match?.[2]?.toUpperCase();
  if (!city || !region || !US_REGIONS.has(region)) return null;
  return { city, region, country: "US" };
}

/** The merchant columns of a details record, each fitted to its column, with what was dropped or cut. */
export function extractMerchantFields(details: Record<string, unknown>): MerchantExtraction {
  const warnings: string[] = [];
  const merchantName = fit(readText(details, "merchant_name", warnings), "merchant_name", warnings);

  let merchantCity: string | null = null;
  let merchantRegion: string | null = null;
  let merchantCountry: string | null = null;
  const information = readText(details, "merchant_information", warnings);
  if (information !== null) {
    const location = parseCityState(information);
    if (location) {
      merchantCity = fit(location.city, "merchant_city", warnings);
      merchantRegion = fit(location.region, "merchant_region", warnings);
      merchantCountry = location.country;
    } else {
      warnings.push(`merchant_information ${quote(information)} is not "CITY, ST"; location left empty.`);
    }
  }

  const merchantCategory = fit(
    readText(details, "merchant_category", warnings),
    "merchant_category",
    warnings,
  );

  let merchantCategoryCode = readText(details, "merchant_category_code", warnings);
  if (merchantCategoryCode !== null && !MCC.test(merchantCategoryCode)) {
    warnings.push(`merchant_category_code ${quote(merchantCategoryCode)} is not 4 digits; dropped.`);
    merchantCategoryCode = null;
  }

  const virtualCardNumber = fit(
    readText(details, "virtual_card_number", warnings),
    "virtual_card_number",
    warnings,
  );

  return {
    fields: {
      merchantName,
      merchantCity,
      merchantRegion,
      merchantCountry,
      merchantCategory,
      merchantCategoryCode,
      virtualCardNumber,
    },
    warnings,
  };
}
