import type { Tx } from "@allot/db/create-database";
import { users } from "@allot/db/schema/users";
import { sql } from "drizzle-orm";
import { randomToken } from "../auth/token-digest";

export type InviteeRow = typeof users.$inferSelect;

const byEmail = (email: string) => sql`lower(${users.email}) = lower(${email})`;

/**
 * The user an address belongs to, or a new inactive placeholder for it: no password, username the
 * address (docs/spec/operations.md). Two invitations to a new address at once make one placeholder: the
 * loser's insert does nothing and it reads the winner's row.
 */
export async function findOrCreateInvitee(tx: Tx, email: string): Promise<InviteeRow> {
  const [existing] = await tx.select().from(users).where(byEmail(email)).limit(1);
  if (existing) return existing;

  const [created] = await tx
    .insert(users)
    .values({ username: email.toLowerCase(), email, passwordHash: null, isActive: false })
    .onConflictDoNothing()
    .returning();
  if (created) return created;
  const [raced] = await tx.select().from(users).where(byEmail(email)).limit(1);
  if (raced) return raced;

  // The address is free but another user's username is this text (their email changed since):
  // the placeholder gets the address with a random suffix as its username.
  const [suffixed] = await tx
    .insert(users)
    .values({
      username: `${email.toLowerCase().slice(0, 138)}-${randomToken(8).replace(/[^A-Za-z0-9]/g, "0")}`,
      email,
      passwordHash: null,
      isActive: false,
    })
    .returning();
  if (!suffixed) throw new Error("placeholder user insert returned nothing");
  return suffixed;
}
