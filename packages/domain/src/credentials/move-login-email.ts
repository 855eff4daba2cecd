import type { Tx } from "@allot/db/create-database";
import { users } from "@allot/db/schema/users";
import { and, eq, ne, sql } from "drizzle-orm";
import { stampAccountsOf } from "../ledger/change-number";
import { Conflict } from "../shared/errors";
import { usernameAfterEmailChange } from "./email-change-rules";

/**
 * Moves a user's login email from one address to another (a confirmed change, or its revocation
 * going back), with the username when it was the address. 409 when another user has taken the
 * target address meanwhile; a username already taken by someone else is left as it was.
 */
export async function moveLoginEmail(tx: Tx, userId: number, from: string, to: string): Promise<void> {
  const [user] = await tx
    .select({ username: users.username })
    .from(users)
    .where(eq(users.id, userId))
    .for("update")
    .limit(1);
  if (!user) throw new Error(`user ${userId} vanished under its email change`);
  const [holder] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = lower(${to}) and ${users.email} <> ''`, ne(users.id, userId)))
    .limit(1);
  if (holder) throw new Conflict("This email address is already in use by another account.", "email_taken");

  let username = usernameAfterEmailChange(user.username, from, to);
  if (username !== user.username) {
    const [clash] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.username, username), ne(users.id, userId)))
      .limit(1);
    if (clash) username = user.username;
  }
  await tx.update(users).set({ email: to, username }).where(eq(users.id, userId));
  // An account's answer lists its owners by username.
  if (username !== user.username) await stampAccountsOf(tx, userId);
}
