import { char, pgTable, varchar } from "drizzle-orm/pg-core";
import { timestamps, uuidPrimaryKey } from "./columns";

export const banks = pgTable("banks", {
  id: uuidPrimaryKey(),
  name: varchar("name", { length: 200 }).notNull(),
  routingNumber: varchar("routing_number", { length: 32 }),
  defaultCurrency: char("default_currency", { length: 3 }).notNull(),
  ...timestamps,
});
