import type { Database } from "@allot/db/create-database";
import { passwordResetRequests } from "@allot/db/schema/credential-tokens";

/**
 * The public "forgot my password" request: it only queues the address (one insert, whatever the
 * address), so neither the answer nor its timing says whether the address has an account. The
 * email-delivery loop does the rest (`issueQueuedPasswordResets`).
 */
export async function requestPasswordReset(db: Database, email: string, now = new Date()): Promise<void> {
  await db.insert(passwordResetRequests).values({ email: email.trim(), requestedAt: now });
}
