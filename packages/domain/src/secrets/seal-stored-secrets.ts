import type { Database } from "@allot/db/create-database";
import { emailOutbox } from "@allot/db/schema/email-outbox";
import { idempotencyKeys } from "@allot/db/schema/idempotency-keys";
import { webhooks } from "@allot/db/schema/webhooks";
import { and, asc, eq, gt, isNotNull, isNull, notLike, or } from "drizzle-orm";
import { isSealed, SEALED_LIKE, type SecretVault } from "./secret-vault";

// Rows converted per statement batch: a large idempotency table is read a page at a time.
const PAGE = 200;

/** What a start-up conversion changed. */
export interface SealingReport {
  webhooks: number;
  idempotencyRecords: number;
  /** Queued (unsent) emails whose bodies were in clear. */
  queuedEmails: number;
  /** Webhooks whose secret is sealed with a key this server does not hold: left as they are. */
  unreadableWebhooks: number;
}

/**
 * Converts what was stored before sealing (decision 0049), at every API and cron start, after the
 * migrations: webhook secrets in clear (or sealed with the key a rotation replaced) are sealed with
 * the current key, and every idempotency record kept in clear gets its answer sealed and its
 * SHA-256 fingerprint replaced by that digest's HMAC (what `requestDigest` fingerprints are made
 * of, so its replay still matches), and every queued email's bodies kept in clear are sealed (their
 * links carry tokens). Each row is rewritten only if unchanged since it was read, so
 * several processes starting at once convert each row once.
 */
export async function sealStoredSecrets(db: Database, vault: SecretVault): Promise<SealingReport> {
  return {
    ...(await sealWebhookSecrets(db, vault)),
    idempotencyRecords: await sealRecords(db, vault),
    queuedEmails: await sealQueuedEmails(db, vault),
  };
}

async function sealWebhookSecrets(db: Database, vault: SecretVault) {
  const reseal = (stored: string) =>
    vault.sealedWithCurrentKey(stored)
      ? stored
      : vault.seal("webhook-secret", vault.open("webhook-secret", stored));
  let converted = 0;
  let unreadable = 0;
  let after: string | null = null;
  for (;;) {
    const page = await db
      .select({ id: webhooks.id, secret: webhooks.secret, previousSecret: webhooks.previousSecret })
      .from(webhooks)
      .where(after === null ? undefined : gt(webhooks.id, after))
      .orderBy(asc(webhooks.id))
      .limit(PAGE);
    for (const row of page) {
      if (
        vault.sealedWithCurrentKey(row.secret) &&
        (row.previousSecret === null || vault.sealedWithCurrentKey(row.previousSecret))
      )
        continue;
      let sealed: { secret: string; previousSecret: string | null };
      try {
        sealed = {
          secret: reseal(row.secret),
          previousSecret: row.previousSecret === null ? null : reseal(row.previousSecret),
        };
      } catch {
        // Sealed with a key no longer held: the start goes on; its deliveries fail until it is set.
        unreadable += 1;
        continue;
      }
      const done = await db
        .update(webhooks)
        .set(sealed)
        .where(
          and(
            eq(webhooks.id, row.id),
            eq(webhooks.secret, row.secret),
            row.previousSecret === null
              ? isNull(webhooks.previousSecret)
              : eq(webhooks.previousSecret, row.previousSecret),
          ),
        )
        .returning({ id: webhooks.id });
      converted += done.length;
    }
    const last = page.at(-1);
    if (!last || page.length < PAGE) return { webhooks: converted, unreadableWebhooks: unreadable };
    after = last.id;
  }
}

async function sealRecords(db: Database, vault: SecretVault): Promise<number> {
  const unsealed = or(isNull(idempotencyKeys.body), notLike(idempotencyKeys.body, SEALED_LIKE));
  let converted = 0;
  for (;;) {
    // A converted row no longer matches: each page is the next rows still in clear.
    const page = await db
      .select()
      .from(idempotencyKeys)
      .where(unsealed)
      .orderBy(asc(idempotencyKeys.userId), asc(idempotencyKeys.key))
      .limit(PAGE);
    for (const row of page) {
      const done = await db
        .update(idempotencyKeys)
        .set({
          fingerprint: vault.fingerprint(row.fingerprint),
          body: vault.seal("idempotency-answer", row.body ?? ""),
        })
        .where(
          and(
            eq(idempotencyKeys.userId, row.userId),
            eq(idempotencyKeys.key, row.key),
            eq(idempotencyKeys.fingerprint, row.fingerprint),
            unsealed,
          ),
        )
        .returning({ key: idempotencyKeys.key });
      converted += done.length;
    }
    if (page.length < PAGE) return converted;
  }
}

async function sealQueuedEmails(db: Database, vault: SecretVault): Promise<number> {
  const o = emailOutbox;
  // A sent message has no body left; an unsent one's sealed with a replaced key still opens.
  const clear = (body: typeof o.textBody | typeof o.htmlBody) =>
    and(isNotNull(body), notLike(body, SEALED_LIKE));
  const unsealed = and(isNull(o.sentAt), or(clear(o.textBody), clear(o.htmlBody)));
  const seal = (body: string | null) =>
    body === null || isSealed(body) ? body : vault.seal("email-body", body);
  let converted = 0;
  for (;;) {
    const page = await db
      .select({ id: o.id, textBody: o.textBody, htmlBody: o.htmlBody })
      .from(o)
      .where(unsealed)
      .orderBy(asc(o.id))
      .limit(PAGE);
    for (const row of page) {
      // Unless a sender has just sent it (and emptied it) or another process has sealed it.
      const done = await db
        .update(o)
        .set({ textBody: seal(row.textBody), htmlBody: seal(row.htmlBody) })
        .where(and(eq(o.id, row.id), unsealed))
        .returning({ id: o.id });
      converted += done.length;
    }
    if (page.length < PAGE) return converted;
  }
}
