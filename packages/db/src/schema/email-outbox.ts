import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, varchar } from "drizzle-orm/pg-core";
import { oneOf, uuidPrimaryKey } from "./columns";
import { NOTIFICATION_KIND_NAMES } from "./notifications";

/** What an email is: a notification sent at once (named by its kind), a digest, or a message of its own. */
export const EMAIL_KINDS = [
  ...NOTIFICATION_KIND_NAMES,
  "digest",
  "invitation",
  "password_reset",
  "email_change_confirm",
  "email_change_revoke",
  "webhook_created",
  "webhook_disabled",
] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];

/**
 * Every email Allot sends, written in the same transaction as the change that causes it and
 * delivered after commit: a rolled-back change sends nothing, a committed one is never lost. A
 * sender claims a row for a while (`claimed_until`) so two processes never send it at once; a
 * failed send is retried at `next_attempt_at`.
 */
export const emailOutbox = pgTable(
  "email_outbox",
  {
    id: uuidPrimaryKey(),
    kind: varchar("kind", { length: 64 }).$type<EmailKind>().notNull(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    // Null once sent: a delivered message's links are credentials, not kept (docs/spec/extensions.md §6).
    textBody: text("text_body"),
    htmlBody: text("html_body"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    claimedUntil: timestamp("claimed_until", { withTimezone: true }),
    lastError: text("last_error"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [
    index("email_outbox_due_idx").on(t.nextAttemptAt).where(sql`${t.sentAt} is null`),
    check("email_outbox_kind", oneOf(t.kind, EMAIL_KINDS)),
  ],
);
