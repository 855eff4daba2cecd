import currencyCodes from "currency-codes";

// Placeholder until the historic list lands: ISO 4217 list one (current currencies).
const active = new Set(currencyCodes.codes());

export const isActiveCurrency = (code: string) => active.has(code);
