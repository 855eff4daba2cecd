import type { MerchantFields } from "./merchant-fields";

export type DescriptionParts = Pick<
  MerchantFields,
  "merchantName" | "merchantCity" | "merchantRegion" | "merchantCategory"
>;

/**
 * The display description of an enriched transaction: "Merchant -- City, ST (Category)", where
 * Category is the provider's merchant_category (the user's own category is shown beside it
 * already). A missing part goes with its separator ("Merchant (Category)", "Merchant -- City").
 * Without a merchant name there is nothing better than the bank's text: null, keep what is there.
 */
export function composeEnrichedDescription(parts: DescriptionParts): string | null {
  if (!parts.merchantName) return null;
  const location = [parts.merchantCity, parts.merchantRegion].filter(Boolean).join(", ");
  return (
    parts.merchantName +
    (location ? ` -- ${location}` : "") +
    (parts.merchantCategory ? ` (${parts.merchantCategory})` : "")
  );
}
