import type { Tx } from "@allot/db/create-database";
import { passwordResetRequests } from "@allot/db/schema/credential-tokens";
import { users } from "@allot/db/schema/users";
import { and, asc, inArray, isNull, or, sql } from "drizzle-orm";
import type { SecretVault } from "../secrets/secret-vault";
import type { PublicContext } from "../shared/use-case-context";
import { issuePasswordReset } from "./issue-password-reset";

const BATCH = 50;

/**
 * Works through queued reset requests (`requestPasswordReset`), oldest first: each known address
 * gets a reset link, an unknown one nothing, and the request row goes. A batch is claimed with
 * `skip locked` and handled in one transaction with the tokens and emails it queues, so several
 * processes never handle a request twice and a crash leaves it queued. Returns how many it handled.
 */
export async function issueQueuedPasswordResets(
  { db, now }: PublicContext,
  options: { publicBaseUrl: string; vault: SecretVault },
): Promise<number> {
  let handled = 0;
  for (;;) {
    const count = await db.transaction(async (tx) => {
      const batch = await tx
        .select()
        .from(passwordResetRequests)
        .orderBy(asc(passwordResetRequests.requestedAt), asc(passwordResetRequests.id))
        .limit(BATCH)
        .for("update", { skipLocked: true });
      for (const request of batch) {
        const user = await resettableUser(tx, request.email);
        // The link goes to the stored address, never to the spelling the caller typed.
        if (user) {
          await issuePasswordReset(tx, user, {
            publicBaseUrl: options.publicBaseUrl,
            reason: "requested",
            now,
            vault: options.vault,
          });
        }
      }
      if (batch.length > 0) {
        await tx.delete(passwordResetRequests).where(
          inArray(
            passwordResetRequests.id,
            batch.map((request) => request.id),
          ),
        );
      }
      return batch.length;
    });
    handled += count;
    if (count < BATCH) return handled;
  }
}

/**
 * The user an address names, if a reset link may go to them: active users and placeholders (no
 * password yet, activated by the reset). A deactivated user with a password gets nothing, since a
 * reset would not let them in.
 */
async function resettableUser(tx: Tx, address: string) {
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
  return user;
}
