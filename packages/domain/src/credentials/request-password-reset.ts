import type { Database } from "@allot/db/create-database";
import { users } from "@allot/db/schema/users";
import { and, isNull, or, sql } from "drizzle-orm";
import { issuePasswordReset } from "./issue-password-reset";

/**
 * The public "forgot my password" request. The answer never says whether the address is known:
 * an unknown address sends nothing. Active users and placeholders (no password yet, activated by
 * the reset) get a link; a deactivated user with a password does not, since a reset would not let
 * them in.
 */
export async function requestPasswordReset(
  db: Database,
  email: string,
  options: { publicBaseUrl: string; now?: Date },
): Promise<void> {
  const address = email.trim();
  if (!address) return;
  await db.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(
        and(
          sql`lower(${users.email}) = lower(${address}) and ${users.email} <> ''`,
          or(sql`${users.isActive}`, isNull(users.passwordHash)),
        ),
      )
      .limit(1);
    if (!user) return;
    // The link goes to the stored address, never to the spelling the caller typed.
    await issuePasswordReset(tx, user, {
      publicBaseUrl: options.publicBaseUrl,
      reason: "requested",
      now: options.now,
    });
  });
}
