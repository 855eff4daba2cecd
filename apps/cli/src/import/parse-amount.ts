import { ValueProblem } from "./import-file-error";

/** The character between whole units and cents in a file: "." (1,234.56) or "," (1.234,56). */
export type DecimalSeparator = "." | ",";

// Banks print amounts for people: "$1,234.56", "(12.50)", "12.50-", "1 234,56 €", "−3.00".
const CURRENCY_SIGNS = /[$€£¥]/g;
const SPACES = /[\s\u00a0\u202f]/g;
const MAX_INTEGER_DIGITS = 12; // numeric(14,2)

/**
 * A bank's amount text as the API's decimal string with exactly two fraction digits ("-1234.50").
 * Read as text, never through a float. Thousands separators must group by three, so a file read
 * with the wrong decimal separator ("1,23" as "."-decimal) is refused rather than misread; digits
 * past the cents are accepted only when they are zeros (money is never rounded silently).
 */
export function parseAmount(text: string, decimal: DecimalSeparator = "."): string {
  let rest = text.trim().replace(/\u2212/g, "-");
  if (rest === "") throw new ValueProblem("the amount is empty");
  let negative = false;
  const parenthesised = /^\((.*)\)$/.exec(rest);
  if (parenthesised) {
    negative = true;
    rest = parenthesised[1] ?? "";
  }
  rest = rest.replace(CURRENCY_SIGNS, "").replace(SPACES, "");
  const sign = /^([+-]?)(.*?)(-?)$/.exec(rest);
  if (sign?.[1] && sign[3]) throw new ValueProblem(`'${text}' is not an amount (two signs)`);
  if (sign?.[1] === "-" || sign?.[3] === "-") {
    if (negative) throw new ValueProblem(`'${text}' is not an amount (two signs)`);
    negative = true;
  }
  rest = sign?.[2] ?? "";

  const group = decimal === "." ? "[,']" : "[.']";
  const d = decimal === "." ? "\\." : ",";
  const match = new RegExp(`^(\\d{1,3}(?:${group}\\d{3})+|\\d*)(?:${d}(\\d*))?$`).exec(rest);
  if (!match || !/\d/.test(rest)) {
    throw new ValueProblem(
      `'${text}' is not an amount${/^[\d.,']+$/.test(rest) ? ` with '${decimal}' as the decimal separator` : ""}`,
    );
  }
  const whole = (match[1] ?? "").replace(/\D/g, "").replace(/^0+(?=\d)/, "") || "0";
  const fraction = match[2] ?? "";
  if (/[1-9]/.test(fraction.slice(2))) throw new ValueProblem(`'${text}' has more than 2 decimal places`);
  if (whole.length > MAX_INTEGER_DIGITS)
    throw new ValueProblem(
      `'${text}' is too large (at most ${MAX_INTEGER_DIGITS} digits before the decimals)`,
    );
  const cents = fraction.slice(0, 2).padEnd(2, "0");
  const zero = /^0+$/.test(whole) && cents === "00";
  return `${negative && !zero ? "-" : ""}${whole}.${cents}`;
}
