import type { Database, Tx } from "@allot/db/create-database";
import { rowsOf } from "@allot/db/rows-of";
import { users } from "@allot/db/schema/users";
import { webhookDeliveries, webhooks } from "@allot/db/schema/webhooks";
import { and, eq, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import { composeEmail } from "../email/compose-email";
import { enqueueEmail } from "../email/enqueue-email";
import type { SecretVault } from "../secrets/secret-vault";
import type { PublicContext } from "../shared/use-case-context";
import { disableWebhook } from "./disable-webhook";
import { FAILING_DISABLES_AFTER_MS, retryDelayMs } from "./retry-schedule";
import type { WebhookPoster, WebhookResponse } from "./webhook-poster";
import { signedHeaders } from "./webhook-secret";

// Longer than an attempt can take (10 s): a sender that dies mid-attempt frees it after this.
export const DELIVERY_CLAIM_MS = 60_000;
// Attempts in flight at once per process: one slow receiver does not hold up the others' events.
const PARALLEL = 10;

export interface WebhookDeliveryReport {
  succeeded: number;
  /** Attempts that failed (retried later, or the delivery failed). */
  failed: number;
}

/** A failed attempt, as the log tells it: the receiver's host only, never its URL or a secret. */
export interface WebhookAttemptFailure {
  webhook_id: string;
  delivery_id: string;
  host: string;
  status: number | null;
  reason: string;
  attempt: number;
  /** Null: no further attempt (410 Gone, or the delivery has failed for good). */
  next_attempt_at: string | null;
}

interface ClaimedDelivery {
  id: string;
  event_id: string;
  body: string;
  attempts: number;
  webhook_id: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | Date | null;
  still_owned: boolean;
}

/**
 * Makes the delivery attempts that are due. Each is claimed in one short statement (`for update
 * skip locked`, then `claimed_until`), so several API and cron processes never make one attempt
 * twice; each outcome is then written in a transaction of its own. An event whose owner
 * no longer owns its account is not sent. A process that dies mid-attempt leaves the delivery
 * claimed for DELIVERY_CLAIM_MS, then another process tries again (at least once).
 */
export async function deliverDueWebhooks(
  { db, now: startedAt }: PublicContext,
  {
    poster,
    vault,
    onFailure = () => {},
  }: {
    poster: WebhookPoster;
    vault: SecretVault;
    /** Told of each failed attempt once its outcome is written (the process logs a warning). */
    onFailure?: (failure: WebhookAttemptFailure) => void;
  },
): Promise<WebhookDeliveryReport> {
  // The clock moves on from the context's instant as the pass goes (as deliver-emails' does).
  const started = Date.now();
  const now = () => new Date(startedAt.getTime() + (Date.now() - started));
  const report = { succeeded: 0, failed: 0 };
  // A worker claims a delivery only when it is free to send it: a claim (which counts as an
  // attempt) is always an attempt begun, even in a process killed with work still queued, and its
  // DELIVERY_CLAIM_MS start with the attempt. The first claim tells whether anything is due at all.
  const work = async (first: ClaimedDelivery | null) => {
    for (let next = first ?? (await claimNext(db, now())); next; next = await claimNext(db, now())) {
      const outcome = await attempt(db, poster, vault, next, now, onFailure);
      if (outcome === "succeeded") report.succeeded += 1;
      else if (outcome === "failed") report.failed += 1;
    }
  };
  const first = await claimNext(db, now());
  if (!first) return report;
  await Promise.all([work(first), ...Array.from({ length: PARALLEL - 1 }, () => work(null))]);
  return report;
}

async function claimNext(db: Database, at: Date): Promise<ClaimedDelivery | null> {
  const atText = at.toISOString();
  const until = new Date(at.getTime() + DELIVERY_CLAIM_MS).toISOString();
  const result = await db.execute(sql`
    with due as (
      select d.id from webhook_deliveries d
      join webhooks w on w.id = d.webhook_id
      where d.status = 'pending' and w.enabled
        and d.next_attempt_at <= ${atText}::timestamptz
        and (d.claimed_until is null or d.claimed_until < ${atText}::timestamptz)
      order by d.next_attempt_at, d.id
      limit 1
      for update of d skip locked
    )
    update webhook_deliveries d
    set claimed_until = ${until}::timestamptz, attempts = d.attempts + 1
    from due, webhooks w
    where d.id = due.id and w.id = d.webhook_id
    returning d.id, d.event_id, d.body, d.attempts, w.id as webhook_id, w.url, w.secret,
      w.previous_secret, w.previous_secret_expires_at,
      (d.bank_account_id is null or exists (
        select 1 from bank_account_owners o
        where o.user_id = w.user_id and o.bank_account_id = d.bank_account_id)) as still_owned`);
  return rowsOf<ClaimedDelivery>(result)[0] ?? null;
}

type Outcome = "succeeded" | "failed" | "skipped";

async function attempt(
  db: Database,
  poster: WebhookPoster,
  vault: SecretVault,
  delivery: ClaimedDelivery,
  now: () => Date,
  onFailure: (failure: WebhookAttemptFailure) => void,
): Promise<Outcome> {
  // Ours while `attempts` is still the number we claimed it with: a claim that ran out and was
  // taken by another sender is left to that sender.
  const ours = and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.attempts, delivery.attempts));
  if (!delivery.still_owned) {
    await db
      .update(webhookDeliveries)
      .set({
        status: "failed",
        attempts: delivery.attempts - 1,
        nextAttemptAt: null,
        claimedUntil: null,
        lastError: "Not sent: the webhook's owner no longer owns this account.",
      })
      .where(ours);
    return "skipped";
  }
  const attemptedAt = now();
  const expires = delivery.previous_secret_expires_at;
  // The secrets are kept sealed (decision 0049): opened here, for this signature only.
  const headers = signedHeaders(
    {
      secret: vault.open("webhook-secret", delivery.secret),
      previousSecret:
        delivery.previous_secret === null ? null : vault.open("webhook-secret", delivery.previous_secret),
      previousSecretExpiresAt: expires === null ? null : new Date(expires),
    },
    { eventId: delivery.event_id, body: delivery.body },
    attemptedAt,
  );
  const response = await poster.post({ url: delivery.url, headers, body: delivery.body });
  const succeeded = response.status !== null && response.status >= 200 && response.status < 300;
  let nextAttemptAt: Date | null = null;
  const written = await db.transaction(async (tx) => {
    const answer = {
      lastAttemptAt: attemptedAt,
      claimedUntil: null,
      responseStatus: response.status,
      responseTimeMs: Math.round(response.timeMs),
      lastError: response.error,
    };
    if (succeeded) {
      const [done] = await tx
        .update(webhookDeliveries)
        .set({ ...answer, status: "succeeded", nextAttemptAt: null })
        .where(ours)
        .returning({ id: webhookDeliveries.id });
      // Only a failing webhook's row is written: every success rewriting it would queue a busy
      // webhook's concurrent attempts on its row lock.
      if (done) await noteSuccess(tx, delivery.webhook_id, attemptedAt);
      return !!done;
    }
    const wait = response.status === 410 ? null : retryDelayMs(delivery.attempts);
    nextAttemptAt = wait === null ? null : new Date(attemptedAt.getTime() + wait);
    const [done] = await tx
      .update(webhookDeliveries)
      .set(
        wait === null ? { ...answer, status: "failed", nextAttemptAt: null } : { ...answer, nextAttemptAt },
      )
      .where(ours)
      .returning({ id: webhookDeliveries.id });
    if (!done) return false;
    await noteLastFailure(tx, delivery.webhook_id, attemptedAt, response);
    if (response.status === 410) {
      await disableWebhook(
        tx,
        delivery.webhook_id,
        "gone",
        "Not sent: the receiver answered 410 Gone, which disabled the webhook.",
      );
      return true;
    }
    await noteFailure(tx, delivery.webhook_id, attemptedAt, response, vault);
    return true;
  });
  if (!succeeded && written) onFailure(attemptFailure(delivery, response, nextAttemptAt));
  return succeeded ? "succeeded" : "failed";
}

// Of the reason, this much goes in the log line.
const LOGGED_REASON_LIMIT = 300;

function attemptFailure(
  delivery: ClaimedDelivery,
  response: WebhookResponse,
  nextAttemptAt: Date | null,
): WebhookAttemptFailure {
  let host = "(unparsable URL)";
  try {
    host = new URL(delivery.url).host;
  } catch {}
  // The poster's reasons name the host at most; should one quote the URL, its path and query go.
  const reason = (response.error ?? `HTTP ${response.status}`).replaceAll(delivery.url, host);
  return {
    webhook_id: delivery.webhook_id,
    delivery_id: delivery.id,
    host,
    status: response.status,
    reason: reason.slice(0, LOGGED_REASON_LIMIT),
    attempt: delivery.attempts,
    next_attempt_at: nextAttemptAt?.toISOString() ?? null,
  };
}

/**
 * A success ends the webhook's failing spell, and clears its last failure when that failure was
 * attempted no later than this success (an older attempt finishing late clears nothing newer).
 */
async function noteSuccess(tx: Tx, webhookId: string, at: Date) {
  const cleared = lte(webhooks.lastFailureAt, at);
  await tx
    .update(webhooks)
    .set({
      failingSince: null,
      lastFailureAt: sql`case when ${cleared} then null else ${webhooks.lastFailureAt} end`,
      lastFailureReason: sql`case when ${cleared} then null else ${webhooks.lastFailureReason} end`,
    })
    .where(and(eq(webhooks.id, webhookId), or(isNotNull(webhooks.failingSince), cleared)));
}

/**
 * The webhook's last failure (decision 0057): this attempt and why, in the words of the delivery's
 * `last_error`, unless a later attempt's failure is already there.
 */
async function noteLastFailure(tx: Tx, webhookId: string, at: Date, response: WebhookResponse) {
  await tx
    .update(webhooks)
    .set({ lastFailureAt: at, lastFailureReason: failureReason(response) })
    .where(
      and(eq(webhooks.id, webhookId), or(isNull(webhooks.lastFailureAt), lte(webhooks.lastFailureAt, at))),
    );
}

/** What went wrong, as a delivery's `last_error` says it; a bare status when the poster gave no text. */
const failureReason = (response: WebhookResponse) => response.error ?? `HTTP ${response.status}`;

/**
 * Marks the webhook failing since this attempt (unless it already was); once every attempt for
 * five days has failed, disables it and emails its owner, in the same transaction.
 */
async function noteFailure(
  tx: Tx,
  webhookId: string,
  at: Date,
  response: WebhookResponse,
  vault: SecretVault,
) {
  await tx
    .update(webhooks)
    .set({ failingSince: at })
    .where(and(eq(webhooks.id, webhookId), isNull(webhooks.failingSince)));
  const [failing] = await tx
    .select({
      url: webhooks.url,
      since: webhooks.failingSince,
      enabled: webhooks.enabled,
      email: users.email,
    })
    .from(webhooks)
    .innerJoin(users, eq(users.id, webhooks.userId))
    .where(eq(webhooks.id, webhookId))
    .for("update", { of: webhooks });
  if (
    !failing?.enabled ||
    !failing.since ||
    at.getTime() - failing.since.getTime() < FAILING_DISABLES_AFTER_MS
  )
    return;
  await disableWebhook(
    tx,
    webhookId,
    "failing",
    "Not sent: every attempt failed for five days, which disabled the webhook.",
  );
  const email = composeEmail({
    subject: "Allot stopped sending to one of your webhooks",
    paragraphs: [
      `Every delivery to ${failing.url} has failed since ${failing.since.toUTCString()}, so Allot has disabled this webhook.`,
      `The last attempt got: ${failureReason(response)}.`,
      "Once the receiver works again, enable the webhook (PATCH /api/v1/webhooks/{id}/ with enabled=true, or `allot webhooks update ID --enable`) and redeliver what it missed.",
    ],
    footer: "You get this email because you created this webhook in Allot.",
  });
  await enqueueEmail(tx, { kind: "webhook_disabled", to: failing.email, ...email }, { vault });
}
