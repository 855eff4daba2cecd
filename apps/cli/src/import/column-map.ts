import { UsageError } from "../output";

/** Which CSV columns (by header name) hold what. */
export interface ColumnMap {
  date: string;
  /** One or more columns, joined with a space ("description=Payee+Memo"). */
  description: string[];
  /** Signed amounts in one column… */
  amount?: string;
  /** …or money out and money in in two (either may be left out); a debit is sent negative. */
  debit?: string;
  credit?: string;
  /** The bank's balance after each row: sent as running_balance, the newest as ending balance. */
  balance?: string;
}

const KEYS = ["date", "amount", "description", "debit", "credit", "balance"] as const;
type Key = (typeof KEYS)[number];
const isKey = (key: string): key is Key => (KEYS as readonly string[]).includes(key);

const usage = (message: string) =>
  new UsageError(
    `--map: ${message}. Example: --map date=Date,amount=Amount,description=Description (keys: ${KEYS.join(", ")})`,
    "invalid_map",
  );

/** `date=Date,amount=Amount,description=Payee+Memo` → a ColumnMap; header names match case-insensitively. */
export function parseColumnMap(spec: string): ColumnMap {
  const pairs = new Map<Key, string>();
  for (const part of spec.split(",")) {
    if (part.trim() === "") continue;
    const at = part.indexOf("=");
    const key = part.slice(0, Math.max(at, 0)).trim().toLowerCase();
    const column = part.slice(at + 1).trim();
    if (at < 0 || column === "") throw usage(`'${part.trim()}' is not key=Column`);
    if (!isKey(key)) throw usage(`unknown key '${key}'`);
    if (pairs.has(key)) throw usage(`'${key}' is given twice`);
    pairs.set(key, column);
  }
  const date = pairs.get("date");
  const description = pairs.get("description");
  if (!date) throw usage("'date' is required");
  if (!description) throw usage("'description' is required");
  const amount = pairs.get("amount");
  const debit = pairs.get("debit");
  const credit = pairs.get("credit");
  if (amount && (debit || credit)) throw usage("give either 'amount' or 'debit'/'credit', not both");
  if (!amount && !debit && !credit) throw usage("'amount' (or 'debit' and 'credit') is required");
  const optional = (key: Key) => {
    const column = pairs.get(key);
    return column ? { [key]: column } : {};
  };
  return {
    date,
    description: description
      .split("+")
      .map((c) => c.trim())
      .filter((c) => c !== ""),
    ...optional("amount"),
    ...optional("debit"),
    ...optional("credit"),
    ...optional("balance"),
  };
}
