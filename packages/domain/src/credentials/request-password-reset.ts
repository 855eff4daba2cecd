import type { credentialRoutes } from "@allot/contract/credentials/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { passwordResetRequests } from "@allot/db/schema/credential-tokens";
import type { PublicContext } from "../shared/use-case-context";

/**
 * The public "forgot my password" request: it only queues the address (one insert, whatever the
 * address), so neither the answer nor its timing says whether the address has an account. The
 * email-delivery loop does the rest (`issueQueuedPasswordResets`).
 */
export async function requestPasswordReset(
  { db, now }: PublicContext,
  { email }: RouteInput<typeof credentialRoutes.requestPasswordReset>,
): Promise<void> {
  await db.insert(passwordResetRequests).values({ email: email.trim(), requestedAt: now });
}
