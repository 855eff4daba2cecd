import { sql } from "drizzle-orm";
import { type AnyPgColumn, bigint, numeric, timestamp, uuid } from "drizzle-orm/pg-core";

/** Money is numeric(14,2): 12 integer digits and 2 fraction digits, read back as a string. */
export const money = (name: string) => numeric(name, { precision: 14, scale: 2 });

export const uuidPrimaryKey = () => uuid("id").primaryKey().defaultRandom();

export const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  modifiedAt: timestamp("modified_at", { withTimezone: true, mode: "date" })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};

// A constant list written into the SQL as literals, so the constraint reads as the list it holds.
const literals = (values: readonly string[]) =>
  sql.raw(values.map((value) => `'${value.replaceAll("'", "''")}'`).join(", "));

/** A CHECK that `column` holds one of `values` (or null). */
export const oneOf = (column: AnyPgColumn, values: readonly string[]) =>
  sql`${column} in (${literals(values)})`;

/** A CHECK that every element of the text array `column` is one of `values`. */
export const eachOneOf = (column: AnyPgColumn, values: readonly string[]) =>
  sql`${column} <@ array[${literals(values)}]::text[]`;

/**
 * What an update writes into `change_seq` unless it sets the column itself: the running write's
 * change number, or the row's own number outside a numbered write (a test fixture, a seed), which
 * leaves the feed as it was.
 */
export const changeStampOnUpdate = () =>
  sql`coalesce(nullif(current_setting('allot.change_seq', true), '')::bigint, change_seq)`;

/**
 * The account's change number of the write that last changed the row, for the change feed
 * (docs/decisions/0035, 0065). A row inserted takes the number its transaction took with the account's
 * lock (`allot.change_seq`, set by the domain's writeAccount); 0 outside one (test fixtures, seeds).
 * Every drizzle update stamps the row the same way (`changeStampOnUpdate`), so no writer sets it by hand.
 */
export const changeSeq = () =>
  bigint("change_seq", { mode: "number" })
    .notNull()
    .default(sql`coalesce(nullif(current_setting('allot.change_seq', true), ''), '0')::bigint`)
    .$onUpdate(changeStampOnUpdate);
