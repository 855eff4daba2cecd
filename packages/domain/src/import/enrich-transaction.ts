import { composeEnrichedDescription } from "./enriched-description";
import { extractMerchantFields, type MerchantFields } from "./merchant-fields";

/** What enrichment reads of a stored transaction. */
export interface EnrichableRow extends MerchantFields {
  details: unknown;
  description: string;
  descriptionUserEdited: boolean;
}

export interface Enrichment {
  values: MerchantFields & { details: Record<string, unknown>; description: string };
  warnings: string[];
}

/**
 * The description is recomposed on the first enrichment only (operations.md, the origin), and
 * never once the user edited it: an overwrite re-applies the merchant fields and leaves the text.
 * Location parts come from the stored columns, so a hand-entered city shows in the description
 * too. No merchant name: unchanged.
 */
function nextDescription(row: EnrichableRow, next: MerchantFields): string {
  if (row.descriptionUserEdited || row.details !== null) return row.description;
  return composeEnrichedDescription(next) ?? row.description;
}

/**
 * The columns a transaction gets from a new details record: the record itself, the merchant
 * columns it yields (replacing what earlier details gave, absent keys included), the location
 * columns only where empty, and the description per nextDescription. Pure; warnings say what was
 * cut or dropped from the record.
 */
export function enrichTransaction(row: EnrichableRow, details: Record<string, unknown>): Enrichment {
  const { fields, warnings } = extractMerchantFields(details);
  // Each location column is filled only while empty (the origin's rule): a city the user entered
  // stays and still gets the record's region and country, and an overwrite keeps the place the
  // first enrichment set.
  const next = {
    ...fields,
    merchantCity: row.merchantCity ?? fields.merchantCity,
    merchantRegion: row.merchantRegion ?? fields.merchantRegion,
    merchantCountry: row.merchantCountry ?? fields.merchantCountry,
  };
  return { values: { ...next, details, description: nextDescription(row, next) }, warnings };
}
