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
    /** HMAC-SHA256 (hex, server key) of the request's digest: the same key with another request is 422 (decision 0049). */
    fingerprint: char("fingerprint", { length: 64 }).notNull(),
    status: smallint("status").notNull(),
    /** The JSON body as answered ("" for a bodiless one), sealed (decision 0049); null only in records of earlier versions. */
    body: text("body"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index("idempotency_keys_expires_idx").on(t.expiresAt)],
);
