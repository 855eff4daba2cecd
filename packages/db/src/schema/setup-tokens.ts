import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The first-run link's token, by SHA-256 digest: issued at each start of the server while no user
 * exists (replacing those of earlier starts), spent by creating the first user.
 */
export const setupTokens = pgTable("setup_tokens", {
  tokenDigest: text("token_digest").primaryKey(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
