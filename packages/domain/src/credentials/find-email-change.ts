import type { Tx } from "@allot/db/create-database";
import { emailChanges } from "@allot/db/schema/credential-tokens";
import { users } from "@allot/db/schema/users";
import { eq } from "drizzle-orm";
import { sha256 } from "../auth/token-digest";
import { NotFound } from "../shared/errors";

export const EMAIL_CHANGE_LINK_NOT_FOUND = "This email-change link is not valid.";

/**
 * The email change of a confirm or revoke token, locked with its user; an unknown token is 404.
 * The user row is locked first, as a new change request does, so the two never deadlock.
 */
export async function lockEmailChangeByToken(tx: Tx, link: "confirm" | "revoke", token: string) {
  const column = link === "confirm" ? emailChanges.confirmTokenDigest : emailChanges.revokeTokenDigest;
  const digest = sha256(token);
  const [found] = await tx
    .select({ userId: emailChanges.userId })
    .from(emailChanges)
    .where(eq(column, digest))
    .limit(1);
  if (!found) throw new NotFound(EMAIL_CHANGE_LINK_NOT_FOUND);
  await tx.select({ id: users.id }).from(users).where(eq(users.id, found.userId)).for("update");
  const [change] = await tx.select().from(emailChanges).where(eq(column, digest)).for("update").limit(1);
  if (!change) throw new NotFound(EMAIL_CHANGE_LINK_NOT_FOUND);
  return change;
}
