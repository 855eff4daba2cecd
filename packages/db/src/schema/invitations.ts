import { INVITATION_STATUSES, type InvitationStatus } from "@allot/contract/invitations/invitation";
import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uuid, varchar } from "drizzle-orm/pg-core";
import { bankAccounts } from "./bank-accounts";
import { oneOf, timestamps, uuidPrimaryKey } from "./columns";
import { users } from "./users";

/**
 * An invitation to co-own a bank account. Two values, never the same: `token` is the handle the
 * account's owners see in the lists and the inviter cancels with (kept as issued, random 32 bytes);
 * the secret mailed to the invitee, the only credential the public read/accept/decline endpoints
 * and link pages take, is kept as its SHA-256 digest alone (docs/decisions/0026).
 */
export const invitations = pgTable(
  "invitations",
  {
    id: uuidPrimaryKey(),
    token: varchar("token", { length: 64 }).notNull().unique(),
    secretDigest: text("secret_digest").notNull().unique(),
    bankAccountId: uuid("bank_account_id")
      .notNull()
      .references(() => bankAccounts.id, { onDelete: "cascade" }),
    inviterId: integer("inviter_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The invited user: an existing one, or the inactive placeholder made for the address. */
    inviteeId: integer("invitee_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    inviteeEmail: varchar("invitee_email", { length: 254 }).notNull(),
    status: varchar("status", { length: 16 }).$type<InvitationStatus>().notNull().default("pending"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    declinedAt: timestamp("declined_at", { withTimezone: true }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index("invitations_account_idx").on(t.bankAccountId, t.status),
    index("invitations_inviter_idx").on(t.inviterId, t.status),
    // The per-address limit counts an account's invitations to one address over 30 days.
    index("invitations_address_idx").on(t.bankAccountId, sql`lower(${t.inviteeEmail})`, t.createdAt),
    check("invitations_status", oneOf(t.status, INVITATION_STATUSES)),
  ],
);
