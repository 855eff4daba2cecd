import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, uniqueIndex, varchar } from "drizzle-orm/pg-core";
import { timestamps, uuidPrimaryKey } from "./columns";
import { users } from "./users";

/** Global categories have no owner; the base set is seeded by migration. */
export const transactionCategories = pgTable(
  "transaction_categories",
  {
    id: uuidPrimaryKey(),
    group: varchar("group", { length: 100 }).notNull(),
    name: varchar("name", { length: 100 }).notNull(),
    ownerId: integer("owner_id").references(() => users.id, { onDelete: "cascade" }),
    archived: boolean("archived").notNull().default(false),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("transaction_categories_global_unique")
      .on(sql`lower(${t.group})`, sql`lower(${t.name})`)
      .where(sql`${t.ownerId} is null`),
    uniqueIndex("transaction_categories_owner_unique")
      .on(t.ownerId, sql`lower(${t.group})`, sql`lower(${t.name})`)
      .where(sql`${t.ownerId} is not null`),
    index("transaction_categories_owner_idx").on(t.ownerId),
  ],
);
