import type { Tx } from "@allot/db/create-database";
import { sql } from "drizzle-orm";

/**
 * The channel senders listen on: a NOTIFY is delivered when its transaction commits (and never if
 * it rolls back), so a sender wakes for a delivery exactly when it can be claimed. Polling stays
 * the fallback (retries coming due, a notification lost with its connection).
 */
export const WEBHOOK_SENDERS_CHANNEL = "allot_webhook_deliveries";

/** Wakes the senders at this transaction's commit (repeats within one transaction fold into one). */
export async function wakeSendersAtCommit(tx: Tx) {
  await tx.execute(sql`select pg_notify(${WEBHOOK_SENDERS_CHANNEL}, '')`);
}
