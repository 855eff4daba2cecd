import { sql } from "drizzle-orm";
import { boolean, integer, pgTable, text, uniqueIndex, uuid, varchar } from "drizzle-orm/pg-core";
import { timestamps } from "./columns";

/** A user's time zone until they choose one (IANA name). */
export const DEFAULT_TIME_ZONE = "America/Los_Angeles";

export const users = pgTable(
  "users",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    username: varchar("username", { length: 150 }).notNull().unique(),
    email: varchar("email", { length: 254 }).notNull().default(""),
    name: varchar("name", { length: 150 }).notNull().default(""),
    /** null: no usable password (invited placeholder accounts). */
    passwordHash: text("password_hash"),
    isStaff: boolean("is_staff").notNull().default(false),
    isActive: boolean("is_active").notNull().default(true),
    timezone: text("timezone").notNull().default(DEFAULT_TIME_ZONE),
    // No foreign key: bank_accounts refers back to users through owners; the app checks ownership.
    defaultBankAccountId: uuid("default_bank_account_id"),
    ...timestamps,
  },
  (t) => [uniqueIndex("users_email_lower_unique").on(sql`lower(${t.email})`).where(sql`${t.email} <> ''`)],
);
