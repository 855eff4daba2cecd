import type { ActivityEventType } from "@allot/contract/activity/activity-event-types";
import type { Tx } from "@allot/db/create-database";
import { invitations } from "@allot/db/schema/invitations";
import type { NotificationKind } from "@allot/db/schema/notifications";
import { eq } from "drizzle-orm";
import type { AccountChange } from "./record-event";
import { notifyAccountOwners, notifyUser } from "./record-notification";

/*
 * The account-level notifications, derived from the event of the write that caused them
 * (docs/decisions/0065): writeAccount records the event and calls noticeAccountEvent with it, in the
 * write's transaction, so a notice exists exactly when its change committed and no use case writes
 * one by hand. User-level notices (password, email address) are not about an account: their use
 * cases record them directly (record-notification.ts).
 */

/**
 * What an act's notices show beyond its event, for people rather than for the trail or webhooks:
 * rows and names the event keeps only as ids, or not at all.
 */
export interface NoticeDetail {
  /** A sync's new posted rows, newest first (the notice lists the first few; the count is the event's). */
  postedRows?: readonly {
    id: string;
    row: { amount: string; rawDescription: string; transactionDay: string };
  }[];
  /** The Recurring budgets a funding run refreshed, by name, in the run's order. */
  refreshedBudgets?: readonly string[];
}

/** One notification: for every owner of the account, or for one user (about the account). */
interface Notice {
  kind: NotificationKind;
  payload: Record<string, unknown>;
  to?: { userId: number };
}

/** What a deriver is given: the event, the account as the write locked it, the act's detail. */
interface Act {
  tx: Tx;
  event: AccountChange;
  account: { id: string; name: string };
  detail: NoticeDetail;
}

// How many new posted rows a transaction_posted notification lists (the count is always complete).
const NOTIFIED_ROWS = 20;

/** A funding run: what moved, and each Recurring budget it refreshed (even when nothing moved). */
function fundingNotices({ event, detail }: Act): Notice[] {
  const data: Record<string, unknown> = event.data;
  const { transfers, occurrences_completed, occurrences_partial } = data;
  const refreshed = detail.refreshedBudgets ?? [];
  return [
    ...(Number(transfers) > 0
      ? [
          {
            kind: "funding_complete" as const,
            payload: { transfers, occurrences_completed, occurrences_partial },
          },
        ]
      : []),
    ...(refreshed.length > 0
      ? [{ kind: "recurring_budget_refreshed" as const, payload: { budgets: refreshed.join(", ") } }]
      : []),
  ];
}

/** A sync: the new posted rows, a balance that disagrees with the bank's, the import itself. */
function syncNotices({ event, detail }: Act): Notice[] {
  const data: Record<string, unknown> = event.data;
  const posted = detail.postedRows ?? [];
  return [
    ...(posted.length > 0
      ? [
          {
            kind: "transaction_posted" as const,
            payload: {
              count: posted.length,
              transactions: posted.slice(0, NOTIFIED_ROWS).map(({ id, row }) => ({
                id,
                amount: row.amount,
                description: row.rawDescription,
                transaction_date: row.transactionDay,
              })),
            },
          },
        ]
      : []),
    ...(data.balance_mismatch !== null && data.balance_mismatch !== undefined
      ? [{ kind: "balance_mismatch" as const, payload: { balance_mismatch: data.balance_mismatch } }]
      : []),
    {
      kind: "import_complete",
      payload: {
        inserted_posted: data.inserted_posted,
        inserted_pending: data.inserted_pending,
        skipped_posted: data.skipped_posted,
        deleted_pending: data.deleted_pending,
        last_posted_through: data.last_posted_through,
      },
    },
  ];
}

/** An answered invitation: its inviter hears of it. */
const inviterNotice =
  (kind: "invitation_accepted" | "invitation_declined") =>
  async ({ tx, event, account }: Act): Promise<Notice[]> => {
    const data: Record<string, unknown> = event.data;
    const { invitation, invitee_email } = data;
    const [row] = await tx
      .select({ inviterId: invitations.inviterId })
      .from(invitations)
      .where(eq(invitations.id, String(invitation)));
    if (!row) throw new Error(`invitation ${String(invitation)} vanished under its answer`);
    return [
      {
        kind,
        payload: { invitation, invitee_email, bank_account_name: account.name },
        to: { userId: row.inviterId },
      },
    ];
  };

/** Event type → the notifications it implies; a type not listed implies none. */
const NOTICES: Partial<Record<ActivityEventType, (act: Act) => Notice[] | Promise<Notice[]>>> = {
  "funding.completed": fundingNotices,
  "funding.underfunded": fundingNotices,
  "import.synced": syncNotices,
  "invitation.accepted": inviterNotice("invitation_accepted"),
  "invitation.declined": inviterNotice("invitation_declined"),
};

/** Records the notifications an account's event implies, in the write's transaction. */
export async function noticeAccountEvent(
  tx: Tx,
  account: { id: string; name: string },
  event: AccountChange,
  detail: NoticeDetail = {},
) {
  const derive = NOTICES[event.type];
  if (!derive) return;
  for (const notice of await derive({ tx, event, account, detail })) {
    if (notice.to) await notifyUser(tx, notice.to.userId, notice.kind, notice.payload, account.id);
    else await notifyAccountOwners(tx, account.id, notice.kind, notice.payload);
  }
}

// A payload with thousands of bad rows makes a notification of the first few.
const LISTED_ERRORS = 10;

/**
 * The one account notice with no event: an import the API refused (400) changed nothing, so the
 * trail has nothing to record, but the owners hear of it, since importers usually run unattended.
 */
export async function noticeRefusedImport(tx: Tx, accountId: string, errors: Record<string, unknown>) {
  const entries = Object.entries(errors);
  await notifyAccountOwners(tx, accountId, "import_error", {
    error_count: entries.length,
    errors: Object.fromEntries(entries.slice(0, LISTED_ERRORS)),
  });
}
