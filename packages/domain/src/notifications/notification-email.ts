import type { NotificationKind } from "@allot/db/schema/notifications";
import type { EmailContent } from "../email/compose-email";
import { NOTIFICATION_KINDS } from "./notification-kinds";

/** A recorded notification as delivery reads it. */
export interface NotificationToSend {
  kind: NotificationKind;
  payload: Record<string, unknown>;
  accountName: string | null;
  createdAt: Date;
}

const text = (value: unknown) =>
  typeof value === "string" || typeof value === "number" ? String(value) : null;

/** The sentences a kind says about its payload; anything else in it is listed after them. */
const SENTENCES: Partial<
  Record<NotificationKind, (p: Record<string, unknown>, account: string) => string[]>
> = {
  transaction_posted: (p, account) => [
    `${text(p.count) ?? "New"} posted transaction(s) arrived in ${account}.`,
    ...(Array.isArray(p.transactions)
      ? p.transactions.map((row: Record<string, unknown>) =>
          `${text(row.transaction_date) ?? ""} ${text(row.description) ?? ""} ${text(row.amount) ?? ""}`.trim(),
        )
      : []),
  ],
  balance_mismatch: (p, account) => [
    `After the latest import, ${account}'s balance in Allot differs from the bank's by ${text(p.balance_mismatch) ?? "an amount"}.`,
    "Look for a missing or duplicated transaction.",
  ],
  import_complete: (p, account) => [
    `An import into ${account} finished: ${text(p.inserted_posted) ?? 0} new posted, ${text(p.inserted_pending) ?? 0} pending, ${text(p.skipped_posted) ?? 0} already known.`,
  ],
  import_error: (p, account) => [
    `An import into ${account} was refused (${text(p.error_count) ?? "some"} problem(s)); nothing was changed.`,
    ...Object.entries((p.errors as Record<string, unknown>) ?? {}).map(
      ([field, messages]) => `${field}: ${Array.isArray(messages) ? messages.join(" ") : String(messages)}`,
    ),
  ],
};

const HANDLED = new Set(["count", "transactions", "balance_mismatch", "errors", "error_count"]);

/** The lines of one notification: its kind's sentences, or its name and payload. */
export function notificationLines(notification: NotificationToSend): string[] {
  const account = notification.accountName ? `“${notification.accountName}”` : "your account";
  const sentences = SENTENCES[notification.kind]?.(notification.payload, account);
  if (sentences) return sentences;
  const details = Object.entries(notification.payload)
    .filter(([key, value]) => !HANDLED.has(key) && text(value) !== null)
    .map(([key, value]) => `${key.replace(/_/g, " ")}: ${text(value)}`);
  return [
    `${NOTIFICATION_KINDS[notification.kind].displayName}${notification.accountName ? ` (${account})` : ""}.`,
    ...details,
  ];
}

/** One notification, emailed on its own. */
export function immediateEmail(notification: NotificationToSend): EmailContent {
  const name = NOTIFICATION_KINDS[notification.kind].displayName;
  return {
    subject: notification.accountName ? `${name}: ${notification.accountName}` : name,
    paragraphs: notificationLines(notification),
    footer: "You can choose how Allot tells you about this in your notification preferences.",
  };
}

/** Several notifications in one message, oldest first. */
export function digestEmail(notifications: NotificationToSend[]): EmailContent {
  return {
    subject: `Allot digest: ${notifications.length} update${notifications.length === 1 ? "" : "s"}`,
    paragraphs: notifications.flatMap((notification) => [
      `${NOTIFICATION_KINDS[notification.kind].displayName} — ${notification.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC`,
      notificationLines(notification).join("\n"),
    ]),
    footer: "You can change how often digests arrive in your channel preferences.",
  };
}
