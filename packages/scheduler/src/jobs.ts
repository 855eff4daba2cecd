import { purgeOldActivity } from "@allot/domain/activity/purge-old-activity";
import { warnExpiringApiKeys } from "@allot/domain/api-keys/warn-expiring-keys";
import type { AttachmentStore } from "@allot/domain/attachments/attachment-store";
import { runAttachmentRemovals } from "@allot/domain/attachments/run-attachment-removals";
import { cleanupTokens } from "@allot/domain/auth/cleanup-tokens";
import { purgeOldTombstones } from "@allot/domain/changes/purge-old-tombstones";
import { purgeExpiredIdempotencyKeys } from "@allot/domain/idempotency/purge-expired-keys";
import { expireDueInvitations } from "@allot/domain/invitations/expire-invitations";
import { deliverDigests } from "@allot/domain/notifications/deliver-notifications";
import type { SecretVault } from "@allot/domain/secrets/secret-vault";
import type { PublicContext } from "@allot/domain/shared/use-case-context";
import { deleteExpiredThrottleCounters } from "@allot/domain/throttle/expired-throttle-counters";
import { purgeOldDeliveries } from "@allot/domain/webhooks/purge-old-deliveries";

export interface Job {
  name: string;
  everyMs: number;
  /** PostgreSQL advisory lock key: one machine at a time runs the job. */
  lockId: number;
  /** Given the scheduler's context, `now` the instant the job is run as. */
  run(ctx: PublicContext): Promise<unknown>;
}

/** What a deployment sets for its jobs (the API's and cron's env.ts read it). */
export interface JobSettings {
  /** CHANGES_RETENTION_DAYS: the change feed's deletions are kept this long. */
  changesRetentionDays: number;
}

/** What the jobs work on beside the database. */
interface JobServices {
  /** Where receipt files live: the removal job deletes what attachment_removals lists. */
  attachments: AttachmentStore;
  /** Seals the bodies of the emails the jobs queue (decision 0049); read when a job first needs it. */
  vault(): SecretVault;
}

const HOUR_MS = 3_600_000;

// Lock ids sit beside the migration lock (4_216_001) in one arbitrary range of our own.
export const jobsFor = (
  { changesRetentionDays }: JobSettings,
  { attachments, vault }: JobServices,
): Job[] => [
  { name: "cleanup-tokens", everyMs: 24 * HOUR_MS, lockId: 4_216_101, run: cleanupTokens },
  {
    name: "cleanup-throttle-counters",
    everyMs: HOUR_MS,
    lockId: 4_216_102,
    run: deleteExpiredThrottleCounters,
  },
  { name: "warn-expiring-api-keys", everyMs: HOUR_MS, lockId: 4_216_111, run: warnExpiringApiKeys },
  // Digests are queued at each user's local window (about 7 am / 6 pm): a pass every five minutes.
  {
    name: "deliver-digests",
    everyMs: 5 * 60_000,
    lockId: 4_216_110,
    run: (ctx) => deliverDigests(ctx, { vault: vault() }),
  },
  // Reading or answering an invitation already treats it as expired; this writes the status down.
  { name: "expire-invitations", everyMs: HOUR_MS, lockId: 4_216_103, run: expireDueInvitations },
  { name: "purge-activity", everyMs: 24 * HOUR_MS, lockId: 4_216_104, run: purgeOldActivity },
  { name: "purge-webhook-deliveries", everyMs: 24 * HOUR_MS, lockId: 4_216_105, run: purgeOldDeliveries },
  // Answers are replayed for IDEMPOTENCY_TTL_HOURS; an expired one no longer matters.
  { name: "purge-idempotency-keys", everyMs: HOUR_MS, lockId: 4_216_106, run: purgeExpiredIdempotencyKeys },
  // An older cursor is then 410 cursor_expired: its client syncs again from the start.
  {
    name: "purge-change-tombstones",
    everyMs: 24 * HOUR_MS,
    lockId: 4_216_107,
    run: (ctx) => purgeOldTombstones(ctx, changesRetentionDays),
  },
  // Requests remove replaced and deleted files right after their commit; this retries what failed
  // and clears what a failed upload left once its grace period is over.
  {
    name: "remove-attachments",
    everyMs: 5 * 60_000,
    lockId: 4_216_108,
    run: (ctx) => runAttachmentRemovals(ctx, attachments),
  },
];
