import {
  char,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  varchar,
} from "drizzle-orm/pg-core";
import { users } from "./users";

/**
 * docs/spec/extensions.md §1: the answer of a request that succeeded with an `Idempotency-Key`,
 * written in the transaction of its effect (both commit, or neither). Keys are the user's own.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: varchar("key", { length: 255 }).notNull(),
    /** SHA-256 (hex) of the method, path and parsed body: the same key with another request is 422. */
    fingerprint: char("fingerprint", { length: 64 }).notNull(),
    status: smallint("status").notNull(),
    /** The JSON body as answered; null for a bodiless answer (204). Stored uncompressed (migration 0019). */
    body: text("body"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index("idempotency_keys_expires_idx").on(t.expiresAt)],
);
