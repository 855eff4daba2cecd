import { z } from "zod";

/*
 * Field builders shared by every request shape. Forms and query strings deliver strings, so
 * booleans and integers are parsed here, by a preprocess step, rather than by trpc-to-openapi's
 * own coercion (which reads "false" as true).
 */

export const DECIMAL_PATTERN = /^-?\d{1,12}(\.\d{1,2})?$/;

/**
 * A money amount in a request: a decimal string. A number is accepted and read as text, but typed
 * out (`amount: 12.5` does not typecheck in the SDK): a float is how a cent gets lost.
 */
export const moneyInput = () =>
  z.preprocess(
    (input: string) => {
      const v: unknown = input;
      return typeof v === "number" && Number.isFinite(v) ? String(v) : v;
    },
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

// Forms and query strings send text ("true", "1"); a typed caller sends the boolean (and the number below).
export const booleanField = () =>
  z.preprocess((input: boolean) => {
    const v: unknown = input;
    if (typeof v !== "string") return v;
    const word = v.trim().toLowerCase();
    return TRUE_WORDS.has(word) ? true : FALSE_WORDS.has(word) ? false : v;
  }, z.boolean());

/**
 * A nullable field a form clears with an empty value (forms cannot send null). Typed as what a JSON
 * client sends, the field's own input or null, so the SDK refuses a wrong type; "" is form text.
 */
export const emptyAsNull = <T extends z.ZodType>(schema: T) =>
  z.preprocess((input: z.input<T> | null) => {
    const v: unknown = input;
    return v === "" ? null : v;
  }, schema.nullable());

export const integerField = () =>
  z.preprocess((input: number) => {
    const v: unknown = input;
    return typeof v === "string" && /^-?\d+$/.test(v.trim()) ? Number(v) : v;
  }, z.number().int());

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a UUID in any case: an id a command or use case may look up instead of a name. */
export const isUuid = (text: string) => UUID_PATTERN.test(text);

/** A UUID, lower-cased: ids are compared as text against the database's lower-case ones. */
export const uuidField = () =>
  z
    .uuid({
      error: (issue) => (issue.input === undefined ? "This field is required." : "Must be a valid UUID."),
    })
    .transform((id) => id.toLowerCase());

/*
 * Dates and date-times must name a real calendar day between these two (date-times as a UTC
 * instant), so every value and filter stays where the database and its driver agree:
 * - PostgreSQL gets drizzle's ISO text, which only reads years 0001–9999.
 * - drizzle reads a timestamptz back with `new Date("0050-01-01 00:00:00+00")`, which V8 takes
 *   as 1950: years 0001–0099 would be stored right and read back wrong.
 * - A bare date or an offset-less time is read in the account's time zone (up to a day from UTC,
 *   and a range's last day reaches the next local midnight): a day is left free at each end.
 */
export const FIRST_DAY = "0100-01-02";
export const LAST_DAY = "9999-12-29";
const FIRST_INSTANT = Date.parse(`${FIRST_DAY}T00:00:00Z`);
const END_INSTANT = Date.parse(`${LAST_DAY}T00:00:00Z`) + 24 * 60 * 60 * 1000;
const DATE_RANGE_MESSAGE = `Must be a date between ${FIRST_DAY} and ${LAST_DAY}.`;

export const dateField = () =>
  z.iso.date("Must be a date, YYYY-MM-DD.").refine((text) => text >= FIRST_DAY && text <= LAST_DAY, {
    message: DATE_RANGE_MESSAGE,
    when: (payload) => payload.issues.length === 0,
  });

const DATE_TIME_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?([zZ]|([+-])(\d{2}):?(\d{2}))?)?$/;
const DATE_TIME_MESSAGE = "Must be an ISO 8601 date-time or a date, YYYY-MM-DD.";

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const daysInMonth = (year: number, month: number) =>
  month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;

/** What a date-time text says, field by field: its day, its wall-clock time and its offset, if any. */
export interface DateTimeText {
  /** The day, YYYY-MM-DD. */
  day: string;
  /** A bare date: no time of day at all. */
  bare: boolean;
  /** The wall-clock time: [hour, minute, second, millisecond]. */
  time: [number, number, number, number];
  /** Minutes east of UTC, or null when the text names no offset (a local time). */
  offsetMinutes: number | null;
}

/**
 * Reads an ISO text field by field (`new Date()` rolls 2024-02-30 over to March), or null when it
 * names no real day and time.
 */
export function readDateTimeText(text: string): DateTimeText | null {
  const match = DATE_TIME_PATTERN.exec(text);
  if (!match) return null;
  const part = (index: number) => Number(match[index] ?? 0);
  const [year, month, day, hour, minute, second] = [part(1), part(2), part(3), part(4), part(5), part(6)];
  const [offsetHours, offsetMinutes] = [part(10), part(11)];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return null;
  const millisecond = Number((match[7] ?? "").padEnd(3, "0").slice(0, 3));
  return {
    day: text.slice(0, 10),
    bare: match[4] === undefined,
    time: [hour, minute, second, millisecond],
    offsetMinutes:
      match[8] === undefined ? null : (match[9] === "-" ? -1 : 1) * (offsetHours * 60 + offsetMinutes),
  };
}

/** The instant a read text names when its wall-clock time is taken at `offsetMinutes` east of UTC. */
export function instantAtOffset(read: DateTimeText, offsetMinutes: number): Date {
  const [year, month, day] = read.day.split("-").map(Number) as [number, number, number];
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: the latter reads years 0–99 as 1900–1999.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(...read.time);
  return new Date(date.getTime() - offsetMinutes * 60_000);
}

const inDateRange = (date: Date) => date.getTime() >= FIRST_INSTANT && date.getTime() < END_INSTANT;

/**
 * The instant an ISO text names read at UTC when it names no offset, or null when it names none
 * or one outside the supported range. Instants of an account's days are read in its time zone
 * instead (domain/calendar/instant-of-text.ts); this reading bounds the range and serves clients.
 */
export function parseDateTimeText(text: string): Date | null {
  const read = readDateTimeText(text);
  const date = read && instantAtOffset(read, read.offsetMinutes ?? 0);
  return date && inDateRange(date) ? date : null;
}

/**
 * A date-time field in a request, kept as its text: a bare `YYYY-MM-DD` is the start of that day
 * and an offset-less time a wall-clock time, both in the account's time zone, which only the
 * domain knows. Unreadable or impossible texts and ones out of range get different messages.
 */
const dateTimeText = (schema: z.ZodString) =>
  schema.trim().superRefine((text, context) => {
    const read = readDateTimeText(text);
    if (!read) context.addIssue({ code: "custom", message: DATE_TIME_MESSAGE, input: text });
    else if (!inDateRange(instantAtOffset(read, read.offsetMinutes ?? 0)))
      context.addIssue({ code: "custom", message: DATE_RANGE_MESSAGE, input: text });
  });

const LOCAL_TEXT =
  "With `Z` or an offset it names that instant; without one it is a wall-clock time in the account's time zone (the bank account's `timezone`), and a bare YYYY-MM-DD is the start of that day there.";

/** A date-time field in a request body (see dateTimeText). */
export const dateTimeInput = () =>
  dateTimeText(
    z.string({ error: (issue) => (issue.input === undefined ? "This field is required." : undefined) }),
  ).meta({ description: `An ISO 8601 date-time or a date. ${LOCAL_TEXT}` });

/** A date-time list filter (see dateTimeText): a bare date as the end of a range takes in that whole day. */
export const dateTimeFilter = (description: string) =>
  dateTimeText(z.string())
    .meta({
      description: `${description} ${LOCAL_TEXT} As the end of a range, a bare date takes in that whole day.`,
    })
    .optional();
export const dateTimeOutput = () => z.iso.datetime({ offset: true });

/** `?ordering=name` or `-name`, from a fixed list of fields. */
export const orderingField = <const F extends readonly [string, ...string[]]>(fields: F) =>
  z
    .enum([...fields, ...fields.map((f) => `-${f}`)] as [
      F[number] | `-${F[number]}`,
      ...(F[number] | `-${F[number]}`)[],
    ])
    .meta({ description: "The field to sort by; a leading `-` reverses the order." });

/**
 * A repeatable query filter from a fixed list (`?status=A&status=B`, or a single `?status=A`):
 * a repeated key arrives as an array, a single one as a string, so one value is wrapped here
 * rather than left to trpc-to-openapi. Values are checked by hand, not by a `z.enum` element, so
 * an unknown one is reported on the field (`status`), not on `status.0`; the `enum` meta still
 * lists the choices in the OpenAPI document.
 */
export const choiceListField = <const V extends readonly [string, ...string[]]>(values: V) => {
  const allowed = new Set<string>(values);
  return z.preprocess(
    (v: V[number] | V[number][]) => (typeof v === "string" ? [v] : v),
    z
      .array(z.string().meta({ enum: [...values] }))
      .superRefine((items, context) => {
        for (const item of items.filter((value) => !allowed.has(value))) {
          context.addIssue({
            code: "custom",
            message: `"${item}" is not a valid choice; use ${values.join(", ")}.`,
            input: item,
          });
        }
      })
      // Cannot fail after the check above: it only narrows the type.
      .pipe(z.array(z.enum(values))),
  );
};

export const MAX_PAGE_SIZE = 500;
export const DEFAULT_PAGE_SIZE = 100;

// The document shows a query parameter's schema without its `.optional()`: the meta goes inside.
export const pageQuery = {
  page: integerField()
    .pipe(z.number().min(1, "Must be at least 1."))
    .meta({
      description: "The page to answer, from 1; one past the last page is 404.",
      minimum: 1,
      default: 1,
    })
    .optional(),
  /** Sizes above the maximum are capped, not refused. */
  page_size: integerField()
    .pipe(z.number().min(1, "Must be at least 1."))
    .transform((n) => Math.min(n, MAX_PAGE_SIZE))
    .meta({
      description: `Items per page, ${DEFAULT_PAGE_SIZE} by default; a size above ${MAX_PAGE_SIZE} is read as ${MAX_PAGE_SIZE}.`,
      minimum: 1,
      maximum: MAX_PAGE_SIZE,
    })
    .optional(),
};

export const paginated = <T extends z.ZodType>(item: T) =>
  z.object({
    count: z.number().int().meta({ description: "How many items match, on all pages.", example: 1 }),
    next: z
      .string()
      .nullable()
      .meta({ description: "The URL of the next page; null on the last.", example: null }),
    previous: z
      .string()
      .nullable()
      .meta({ description: "The URL of the previous page; null on the first.", example: null }),
    results: z.array(item).meta({ description: "This page's items." }),
  });

/** `?bank_account=`: a list's filter on the account its items belong to. */
export const accountFilter = () =>
  uuidField().meta({ description: "Only those of this bank account." }).optional();

/** A field's description, or its description and a realistic example. */
export type FieldDoc = string | readonly [description: string, example: unknown];

/**
 * The shape with each field described (and given its example): the server, the OpenAPI document
 * and the SDK read the same text. A resource writes its descriptions once and describes both its
 * request and its response fields with them. An optional field is described inside its
 * `.optional()`, where trpc-to-openapi still sees it on a query parameter.
 */
export function describeFields<S extends z.ZodRawShape>(shape: S, docs: { [K in keyof S]: FieldDoc }): S {
  const described = Object.entries(shape).map(([name, field]) => {
    const doc = docs[name] as FieldDoc;
    const schema = field as z.ZodType;
    const [text, example] = typeof doc === "string" ? [doc] : doc;
    // A builder's own description (how a date-time is read, say) follows the field's, once.
    const own = (schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema).description;
    const description = own && !own.includes(text) ? `${text} ${own}` : text;
    // `example`, not `examples`: zod drops `examples` from a parsed input's schema (a request body's).
    const meta = typeof doc === "string" ? { description } : { description, example };
    return [
      name,
      schema instanceof z.ZodOptional
        ? (schema.unwrap() as z.ZodType).meta(meta).optional()
        : schema.meta(meta),
    ];
  });
  return Object.fromEntries(described) as S;
}

export const noInput = () => z.object({});
export const noContent = () => z.void();
