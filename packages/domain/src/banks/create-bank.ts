import { banks } from "@allot/db/schema/banks";
import { isActiveCurrency } from "../currencies/currency-list";
import { ValidationFailed } from "../shared/errors";
import type { PublicContext } from "../shared/use-case-context";
import { toBankView } from "./bank-view";

/** Admin only (CLI): banks are reference data. */
export async function createBank(
  { db }: PublicContext,
  input: { name: string; currency: string; routingNumber?: string | null },
) {
  const name = input.name.trim();
  const currency = input.currency.trim().toUpperCase();
  if (!name || name.length > 200) throw ValidationFailed.on("name", "Must be 1 to 200 characters.");
  if (!isActiveCurrency(currency))
    throw ValidationFailed.on("currency", `'${input.currency}' is not an ISO 4217 currency code.`);
  const [row] = await db
    .insert(banks)
    .values({ name, defaultCurrency: currency, routingNumber: input.routingNumber?.trim() || null })
    .returning();
  if (!row) throw new Error("bank insert returned nothing");
  return toBankView(row);
}
