import type { Tx } from "@allot/db/create-database";
import { users } from "@allot/db/schema/users";
import { eq } from "drizzle-orm";
import { Forbidden } from "../shared/errors";

/**
 * The caller's user row, locked, refusing with 403 when it has no usable password: change-password
 * and change-email act on the strength of a password the caller proved they know.
 */
export async function lockUserWithPassword(tx: Tx, userId: number) {
  const [user] = await tx.select().from(users).where(eq(users.id, userId)).for("update").limit(1);
  if (!user?.passwordHash) {
    throw new Forbidden(
      "This account has no usable password yet: set one through the password-reset link first.",
      "no_usable_password",
    );
  }
  return { ...user, passwordHash: user.passwordHash };
}
