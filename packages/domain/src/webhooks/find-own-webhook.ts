import type { Database, Tx } from "@allot/db/create-database";
import { webhooks } from "@allot/db/schema/webhooks";
import { and, eq } from "drizzle-orm";
import type { Actor } from "../shared/actor";
import { NotFound } from "../shared/errors";

export const WEBHOOK_NOT_FOUND = "No webhook matches the given id.";

/** One of the caller's webhooks, locked when `forUpdate`; anyone else's is not found. */
export async function findOwnWebhook(
  db: Database | Tx,
  actor: Actor,
  id: string,
  options = { forUpdate: false },
) {
  const query = db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.userId, actor.userId)))
    .limit(1);
  const [row] = options.forUpdate ? await query.for("update") : await query;
  if (!row) throw new NotFound(WEBHOOK_NOT_FOUND);
  return row;
}
