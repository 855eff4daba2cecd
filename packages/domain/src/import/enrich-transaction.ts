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

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The description stays unless it is still ours to replace: never once the user edited it; on
 * first enrichment always; on an overwrite only while it is what the previous details composed
 * (or they composed nothing, leaving the pre-enrichment text). Location parts come from the stored
 * columns, so a hand-entered city shows in the description too. No merchant name: unchanged.
 */
function nextDescription(row: EnrichableRow, previous: MerchantFields | null, next: MerchantFields): string {
  if (row.descriptionUserEdited) return row.description;
  const composed = composeEnrichedDescription(next);
  if (composed === null) return row.description;
  if (previous === null) return composed;
  // Location is not editable after create, so the stored columns are what the last composition saw.
  const before = composeEnrichedDescription({
    ...previous,
    merchantCity: row.merchantCity,
    merchantRegion: row.merchantRegion,
  });
  return before === null || before === row.description ? composed : row.description;
}

/**
 * The columns a transaction gets from a new details record: the record itself, the merchant
 * columns it yields (replacing what earlier details gave, absent keys included), the location
 * columns only where empty, and the description per nextDescription. Pure; warnings say what was
 * cut or dropped from the record.
 */
export function enrichTransaction(row: EnrichableRow, details: Record<string, unknown>): Enrichment {
  const { fields, warnings } = extractMerchantFields(details);
  // Rows enriched before have a record (the contract only lets objects in); anything else reads as none.
  const previous =
    row.details === null ? null : extractMerchantFields(isRecord(row.details) ? row.details : {}).fields;
  // Each location column is filled only while empty (the origin's rule): a city the user entered
  // stays and still gets the record's region and country, and an overwrite keeps the place the
  // first enrichment set.
  const next = {
    ...fields,
    merchantCity: row.merchantCity ?? fields.merchantCity,
    merchantRegion: row.merchantRegion ?? fields.merchantRegion,
    merchantCountry: row.merchantCountry ?? fields.merchantCountry,
  };
  return { values: { ...next, details, description: nextDescription(row, previous, next) }, warnings };
}
