import { sql } from "drizzle-orm";
import { type AnyPgColumn, numeric, timestamp, uuid } from "drizzle-orm/pg-core";

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

/** A CHECK that `column` holds one of `values`, a constant list written into the SQL as literals. */
export const oneOf = (column: AnyPgColumn, values: readonly string[]) =>
  sql`${column} in (${sql.raw(values.map((value) => `'${value.replaceAll("'", "''")}'`).join(", "))})`;
