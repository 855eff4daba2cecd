import type { credentialRoutes } from "@allot/contract/credentials/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { emailChanges } from "@allot/db/schema/credential-tokens";
import { eq } from "drizzle-orm";
import { ValidationFailed } from "../shared/errors";
import type { PublicContext } from "../shared/use-case-context";
import { revocationEndsAt } from "./email-change-rules";
import { lockEmailChangeByToken } from "./find-email-change";
import { revertEmailChange } from "./revert-email-change";

/**
 * The old address's link. A pending change is cancelled, nothing else. A confirmed one, within 7
 * days, is undone as a takeover (`revertEmailChange`), and no new change can be requested until its
 * revocation window would have closed (`request-email-change.ts`). Unknown token 404; revoked,
 * expired or past the window 400.
 */
export async function revokeEmailChange(
  { db, now, services }: PublicContext<"publicBaseUrl" | "vault">,
  { token }: RouteInput<typeof credentialRoutes.revokeEmailChange>,
): Promise<void> {
  await db.transaction(async (tx) => {
    const change = await lockEmailChangeByToken(tx, "revoke", token);
    if (change.status === "revoked") {
      throw ValidationFailed.general("This email change was already cancelled or replaced.");
    }
    if (change.status === "pending") {
      if (change.confirmExpiresAt <= now) {
        throw ValidationFailed.general("This email change has expired; there is nothing to cancel.");
      }
    } else {
      if (!change.confirmedAt || revocationEndsAt(change.confirmedAt) <= now) {
        throw ValidationFailed.general("The 7 days to revoke this email change have passed.");
      }
      await revertEmailChange(tx, change, {
        publicBaseUrl: services.publicBaseUrl,
        vault: services.vault,
        now,
      });
    }
    await tx
      .update(emailChanges)
      .set({ status: "revoked", revokedAt: now })
      .where(eq(emailChanges.id, change.id));
  });
}
