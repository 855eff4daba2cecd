import { attachmentRemovals } from "@allot/db/schema/attachment-removals";
import { asc, eq, lte, sql } from "drizzle-orm";
import type { PublicContext } from "../shared/use-case-context";
import type { AttachmentStore } from "./attachment-store";

const BATCH = 50;
const MINUTE_MS = 60_000;
const MAX_BACKOFF_MS = 24 * 60 * MINUTE_MS;
const ERROR_MAX_CHARS = 500;

/** The wait after the `attempts`-th failure: 1, 2, 4 … minutes, at most a day. */
const removalBackoffMs = (attempts: number) =>
  Math.min(MINUTE_MS * 2 ** Math.max(0, attempts - 1), MAX_BACKOFF_MS);

/**
 * The scheduled side of attachment_removals: every due row (its grace period or backoff over) has
 * its file removed and is deleted; a failure is written down and tried again later. Rows are taken
 * `FOR UPDATE SKIP LOCKED`, so several machines (and a request removing its own at once) never
 * work on one row together, and a commit that references an upload takes its row back first.
 * Answers how many files were removed.
 */
export async function runAttachmentRemovals({ db, now }: PublicContext, store: AttachmentStore) {
  let removed = 0;
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      const due = await tx
        .select({ key: attachmentRemovals.key, attempts: attachmentRemovals.attempts })
        .from(attachmentRemovals)
        .where(lte(attachmentRemovals.notBefore, now))
        .orderBy(asc(attachmentRemovals.notBefore))
        .limit(BATCH)
        .for("update", { skipLocked: true });
      let done = 0;
      for (const { key, attempts } of due) {
        try {
          await store.remove(key);
          await tx.delete(attachmentRemovals).where(eq(attachmentRemovals.key, key));
          done += 1;
        } catch (error) {
          await tx
            .update(attachmentRemovals)
            .set({
              attempts: sql`${attachmentRemovals.attempts} + 1`,
              lastError: String((error as Error)?.message ?? error).slice(0, ERROR_MAX_CHARS),
              notBefore: new Date(now.getTime() + removalBackoffMs(attempts + 1)),
            })
            .where(eq(attachmentRemovals.key, key));
        }
      }
      return { taken: due.length, done };
    });
    removed += batch.done;
    if (batch.taken < BATCH) return removed;
  }
}
