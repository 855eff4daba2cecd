import { z } from "zod";

/*
 * Field builders shared by every request shape. Forms and query strings deliver strings, so
 * booleans and integers are parsed here, by a preprocess step, rather than by trpc-to-openapi's
 * own coercion (which reads "false" as true).
 */

export const DECIMAL_PATTERN = /^-?\d{1,12}(\.\d{1,2})?$/;

/** A money amount in a request: a decimal string (numbers are accepted and read as text). */
export const moneyInput = () =>
  z.preprocess(
    (v) => (typeof v === "number" && Number.isFinite(v) ? String(v) : v),
    z
      .string()
      .trim()
      .regex(DECIMAL_PATTERN, "Must be a decimal with up to 12 integer digits and 2 decimal places."),
  );

/** A money amount in a response: a decimal string with exactly two fraction digits. */
export const moneyOutput = () => z.string().regex(/^-?\d+\.\d{2}$/);

export const currencyCode = () =>
  z
    .string()
    .trim()
    .regex(/^[A-Za-z]{3}$/, "Must be a 3-letter ISO 4217 code.")
    .transform((v) => v.toUpperCase());

const TRUE_WORDS = new Set(["true", "1", "yes", "on"]);
const FALSE_WORDS = new Set(["false", "0", "no", "off"]);

export const booleanField = () =>
  z.preprocess((v) => {
    if (typeof v !== "string") return v;
    const word = v.trim().toLowerCase();
    return TRUE_WORDS.has(word) ? true : FALSE_WORDS.has(word) ? false : v;
  }, z.boolean());

export const integerField = () =>
  z.preprocess((v) => (typeof v === "string" && /^-?\d+$/.test(v.trim()) ? Number(v) : v), z.number().int());

export const uuidField = () =>
  z.uuid({
    error: (issue) => (issue.input === undefined ? "This field is required." : "Must be a valid UUID."),
  });

export const dateField = () => z.iso.date("Must be a date, YYYY-MM-DD.");

const DATE_TIME_PATTERN =
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:[zZ]|[+-]\d{2}:?\d{2})?)?$/;
const HAS_OFFSET = /(?:[zZ]|[+-]\d{2}:?\d{2})$/;
const DATE_TIME_MESSAGE = "Must be an ISO 8601 date-time or a date, YYYY-MM-DD.";

/** The instant an ISO text names: a bare date is midnight UTC, a date-time without offset is UTC. */
export function parseDateTimeText(text: string): Date | null {
  if (!DATE_TIME_PATTERN.test(text)) return null;
  const iso = text.length === 10 ? `${text}T00:00:00Z` : HAS_OFFSET.test(text) ? text : `${text}Z`;
  const date = new Date(iso.replace(" ", "T"));
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A date-time field in a request body, as a Date (a bare `YYYY-MM-DD` means midnight UTC). */
export const dateTimeInput = () =>
  z
    .string({ error: (issue) => (issue.input === undefined ? "This field is required." : undefined) })
    .trim()
    .refine((text) => parseDateTimeText(text) !== null, DATE_TIME_MESSAGE)
    .transform((text) => parseDateTimeText(text) as Date);

/**
 * A date-time list filter, kept as text: a bare date as the end of a range takes in that whole
 * day (see domain/shared/date-range.ts).
 */
export const dateTimeFilter = () =>
  z
    .string()
    .trim()
    .refine((text) => parseDateTimeText(text) !== null, DATE_TIME_MESSAGE)
    .optional();
export const dateTimeOutput = () => z.iso.datetime({ offset: true });

/** `?ordering=name` or `-name`, from a fixed list of fields. */
export const orderingField = <const F extends readonly [string, ...string[]]>(fields: F) =>
  z.enum([...fields, ...fields.map((f) => `-${f}`)] as [string, ...string[]]);

export const MAX_PAGE_SIZE = 500;
export const DEFAULT_PAGE_SIZE = 100;

export const pageQuery = {
  page: integerField().pipe(z.number().min(1, "Must be at least 1.")).optional(),
  /** Sizes above the maximum are capped, not refused. */
  page_size: integerField()
    .pipe(z.number().min(1, "Must be at least 1."))
    .transform((n) => Math.min(n, MAX_PAGE_SIZE))
    .optional(),
};

export const paginated = <T extends z.ZodType>(item: T) =>
  z.object({
    count: z.number().int(),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(item),
  });

export const noInput = () => z.object({});
export const noContent = () => z.void();
