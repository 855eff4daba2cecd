import type { DeliveryMode, DigestFrequency } from "@allot/contract/preferences/preferences";
import { arrayLiteral } from "@allot/db/array-literal";
import type { Tx } from "@allot/db/create-database";
import { rowsOf } from "@allot/db/rows-of";
import type { NotificationKind, NotificationOutcome } from "@allot/db/schema/notifications";
import { sql } from "drizzle-orm";
import { composeEmail } from "../email/compose-email";
import { enqueueEmail } from "../email/enqueue-email";
import type { SecretVault } from "../secrets/secret-vault";
import type { PublicContext } from "../shared/use-case-context";
import { DEFAULT_DIGEST_FREQUENCY } from "./channels";
import { lastDigestWindow } from "./digest-windows";
import { digestEmail, immediateEmail, type NotificationToSend } from "./notification-email";
import { NOTIFICATION_KINDS } from "./notification-kinds";

const BATCH = 200;

interface PendingRow {
  id: string;
  user_id: number;
  kind: NotificationKind;
  payload: Record<string, unknown>;
  created_at: string | Date;
  email: string;
  timezone: string;
  account_name: string | null;
  mode: DeliveryMode;
  digest_frequency: DigestFrequency | null;
}

const kinds = Object.entries(NOTIFICATION_KINDS);

/**
 * Undelivered notifications whose effective mode (the user's choice, or the kind's default; a kind
 * that cannot be suppressed always its default) is one of `modes`, locked with skip locked so
 * several processes share the work and never deliver one twice.
 */
async function lockPending(tx: Tx, modes: DeliveryMode[], limit: number | null): Promise<PendingRow[]> {
  const result = await tx.execute(sql`
    with kinds(kind, default_mode, can_suppress) as (
      select * from unnest(${arrayLiteral(kinds.map(([kind]) => kind))}::text[],
        ${arrayLiteral(kinds.map(([, k]) => k.defaultMode))}::text[],
        ${arrayLiteral(kinds.map(([, k]) => String(k.canSuppress)))}::boolean[])
    )
    select n.id, n.user_id, n.kind, n.payload, n.created_at, u.email, u.timezone, a.name as account_name,
      case when k.can_suppress then coalesce(p.delivery_mode, k.default_mode) else k.default_mode end as mode,
      cp.digest_frequency
    from notifications n
    join users u on u.id = n.user_id
    join kinds k on k.kind = n.kind
    left join notification_preferences p on p.user_id = n.user_id and p.kind = n.kind
    left join channel_preferences cp on cp.user_id = n.user_id and cp.channel = 'email'
    left join bank_accounts a on a.id = n.bank_account_id
    where n.delivered_at is null
      and (case when k.can_suppress then coalesce(p.delivery_mode, k.default_mode) else k.default_mode end)
        in (${sql.join(
          modes.map((mode) => sql`${mode}`),
          sql`, `,
        )})
    order by n.created_at, n.id
    ${limit === null ? sql`` : sql`limit ${limit}`}
    for update of n skip locked`);
  return rowsOf<PendingRow>(result);
}

const toSend = (row: PendingRow): NotificationToSend => ({
  kind: row.kind,
  payload: row.payload,
  accountName: row.account_name,
  createdAt: new Date(row.created_at),
});

async function markDelivered(tx: Tx, ids: string[], outcome: NotificationOutcome, at: Date) {
  if (ids.length === 0) return;
  await tx.execute(sql`
    update notifications set delivered_at = ${at.toISOString()}::timestamptz, outcome = ${outcome}
    where id = any(${arrayLiteral(ids)}::uuid[])`);
}

/**
 * Immediate notifications become emails (queued in the outbox in the same transaction that marks
 * them delivered), and those the user turned off are marked suppressed. Digest ones are left for
 * their window. Returns how many were handled.
 */
export async function deliverImmediateNotifications(
  { db, now }: PublicContext,
  seal: { vault: SecretVault },
): Promise<number> {
  let handled = 0;
  for (;;) {
    const count = await db.transaction(async (tx) => {
      const rows = await lockPending(tx, ["immediate", "off"], BATCH);
      for (const row of rows.filter((r) => r.mode === "immediate" && r.email))
        await enqueueEmail(
          tx,
          {
            kind: row.kind,
            to: row.email,
            ...composeEmail(immediateEmail(toSend(row))),
          },
          seal,
        );
      await markDelivered(
        tx,
        rows.filter((r) => r.mode === "immediate").map((r) => r.id),
        "emailed",
        now,
      );
      await markDelivered(
        tx,
        rows.filter((r) => r.mode === "off").map((r) => r.id),
        "suppressed",
        now,
      );
      return rows.length;
    });
    handled += count;
    if (count < BATCH) return handled;
  }
}

/**
 * Each user's digest: the digest-mode notifications recorded before their channel's latest window
 * (in their time zone), in one email. Later ones wait for the next window. Returns the emails queued.
 */
export async function deliverDigests(
  { db, now }: PublicContext,
  seal: { vault: SecretVault },
): Promise<number> {
  return db.transaction(async (tx) => {
    // All of them: which are due depends on each user's window, so a batch could hold none that is.
    const rows = await lockPending(tx, ["digest"], null);
    const byUser = new Map<number, PendingRow[]>();
    for (const row of rows) {
      const window = lastDigestWindow(now, row.timezone, row.digest_frequency ?? DEFAULT_DIGEST_FREQUENCY);
      if (new Date(row.created_at) >= window) continue;
      byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row]);
    }
    for (const due of byUser.values()) {
      const [first] = due;
      if (!first?.email) continue;
      await enqueueEmail(
        tx,
        {
          kind: "digest",
          to: first.email,
          ...composeEmail(digestEmail(due.map(toSend))),
        },
        seal,
      );
      await markDelivered(
        tx,
        due.map((row) => row.id),
        "digested",
        now,
      );
    }
    return byUser.size;
  });
}
