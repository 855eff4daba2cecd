import type { Tx } from "@allot/db/create-database";
import { webhooks } from "@allot/db/schema/webhooks";
import { and, eq, gte, inArray, type SQL } from "drizzle-orm";
import { disableWebhooks } from "./disable-webhook";

/**
 * A webhook outlives nothing that planted it (decision 0048). Each of these runs in the
 * transaction that takes a credential back, so the revocation and the silence commit together.
 */

const REVOKED_NOTE = "Not sent: the credential that created the webhook was revoked, which disabled it.";

async function disableMatching(
  tx: Tx,
  userId: number,
  match: SQL | undefined,
  reason: "credential_revoked" | "email_change_undone",
  note: string,
) {
  const rows = await tx
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(and(eq(webhooks.userId, userId), eq(webhooks.enabled, true), match))
    .for("update");
  await disableWebhooks(
    tx,
    rows.map((row) => row.id),
    reason,
    note,
  );
}

/** The webhooks of API keys just revoked. */
export async function disableWebhooksOfApiKeys(tx: Tx, userId: number, apiKeyIds: string[]) {
  if (apiKeyIds.length === 0) return;
  await disableMatching(
    tx,
    userId,
    inArray(webhooks.credentialApiKeyId, apiKeyIds),
    "credential_revoked",
    REVOKED_NOTE,
  );
}

/** The webhooks of login sessions just ended by a reset, a password change or an undone email change. */
export async function disableWebhooksOfSessions(tx: Tx, userId: number, sessionIds: string[]) {
  if (sessionIds.length === 0) return;
  await disableMatching(
    tx,
    userId,
    inArray(webhooks.credentialSessionId, sessionIds),
    "credential_revoked",
    REVOKED_NOTE,
  );
}

/** Every webhook created at or after an undone email change's request, whatever created it. */
export async function disableWebhooksCreatedSince(tx: Tx, userId: number, since: Date) {
  await disableMatching(
    tx,
    userId,
    gte(webhooks.createdAt, since),
    "email_change_undone",
    "Not sent: the webhook was created after an email change that was undone, which disabled it.",
  );
}
