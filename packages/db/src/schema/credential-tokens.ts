import { check, index, integer, pgTable, text, timestamp, varchar } from "drizzle-orm/pg-core";
import { oneOf, uuidPrimaryKey } from "./columns";
import { users } from "./users";

/** An email change awaits its confirmation, then is confirmed, or revoked (by either token, or a newer request). */
export const EMAIL_CHANGE_STATUSES = ["pending", "confirmed", "revoked"] as const;
export type EmailChangeStatus = (typeof EMAIL_CHANGE_STATUSES)[number];

/** A password-reset link's token, by SHA-256 digest: single use, 24 hours. */
export const passwordResetTokens = pgTable(
  "password_reset_tokens",
  {
    id: uuidPrimaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenDigest: text("token_digest").notNull().unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [index("password_reset_tokens_user_idx").on(t.userId)],
);

/**
 * A requested change of login email: the confirm token goes to the new address (24 hours), the
 * revoke token to the old one (until 7 days after confirmation). Both by SHA-256 digest.
 */
export const emailChanges = pgTable(
  "email_changes",
  {
    id: uuidPrimaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    oldEmail: varchar("old_email", { length: 254 }).notNull(),
    newEmail: varchar("new_email", { length: 254 }).notNull(),
    confirmTokenDigest: text("confirm_token_digest").notNull().unique(),
    revokeTokenDigest: text("revoke_token_digest").notNull().unique(),
    status: varchar("status", { length: 16 }).$type<EmailChangeStatus>().notNull().default("pending"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    confirmExpiresAt: timestamp("confirm_expires_at", { withTimezone: true }).notNull(),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [
    index("email_changes_user_idx").on(t.userId, t.status),
    check("email_changes_status", oneOf(t.status, EMAIL_CHANGE_STATUSES)),
  ],
);

/**
 * A queued "forgot my password" request: the request only writes this row, the same for any
 * address, so its timing says nothing about which addresses have accounts. The email-delivery
 * loop resolves the address, issues the token and queues the email, then deletes the row.
 */
export const passwordResetRequests = pgTable(
  "password_reset_requests",
  {
    id: uuidPrimaryKey(),
    email: varchar("email", { length: 254 }).notNull(),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("password_reset_requests_requested_idx").on(t.requestedAt)],
);
