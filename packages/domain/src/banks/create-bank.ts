import { CONTROL_CHARACTERS_MESSAGE, hasControlCharacters } from "@allot/contract/http/control-characters";
import { banks } from "@allot/db/schema/banks";
import { isActiveCurrency } from "../currencies/currency-list";
import { ValidationFailed } from "../shared/errors";
import type { PublicContext } from "../shared/use-case-context";
import { addError, type FieldErrors } from "../shared/validation";
import { toBankView } from "./bank-view";

interface NewBank {
  name: string;
  currency: string;
  routingNumber?: string | null;
}

/** The fields of a bank to create, checked: ValidationFailed on `name` and `currency` at once. */
export function parseNewBank(input: NewBank) {
  const name = input.name.trim();
  const currency = input.currency.trim().toUpperCase();
  const errors: FieldErrors = {};
  if (hasControlCharacters(input.name)) addError(errors, "name", CONTROL_CHARACTERS_MESSAGE);
  else if (!name || name.length > 200) addError(errors, "name", "Must be 1 to 200 characters.");
  if (!isActiveCurrency(currency))
    addError(errors, "currency", `'${input.currency}' is not an ISO 4217 currency code.`);
  if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
  return { name, currency, routingNumber: input.routingNumber?.trim() || null };
}

/** Admin only (CLI, the first-run page): banks are reference data. */
export async function createBank({ db }: PublicContext, input: NewBank) {
  const { name, currency, routingNumber } = parseNewBank(input);
  const [row] = await db.insert(banks).values({ name, defaultCurrency: currency, routingNumber }).returning();
  if (!row) throw new Error("bank insert returned nothing");
  return toBankView(row);
}
