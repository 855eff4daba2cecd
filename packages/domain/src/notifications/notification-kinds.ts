import type { DeliveryMode } from "@allot/contract/preferences/preferences";
import type { NotificationKind } from "@allot/db/schema/notifications";

/**
 * Every notification kind (docs/spec/operations.md; the names are the database's list): its default
 * delivery mode, and whether a user may turn it off. Recorded kinds are delivered according to these
 * once the user has no preference stored.
 */
export const NOTIFICATION_KINDS = {
  funding_complete: { displayName: "Funding complete", defaultMode: "digest", canSuppress: true },
  import_complete: { displayName: "Import complete", defaultMode: "off", canSuppress: true },
  transaction_posted: { displayName: "Transaction posted", defaultMode: "immediate", canSuppress: true },
  balance_mismatch: { displayName: "Balance mismatch", defaultMode: "immediate", canSuppress: false },
  import_error: { displayName: "Import error", defaultMode: "digest", canSuppress: true },
  recurring_budget_refreshed: {
    displayName: "Recurring budget refreshed",
    defaultMode: "digest",
    canSuppress: true,
  },
  invitation_accepted: { displayName: "Invitation accepted", defaultMode: "immediate", canSuppress: true },
  invitation_declined: { displayName: "Invitation declined", defaultMode: "immediate", canSuppress: true },
  password_changed: { displayName: "Password changed", defaultMode: "immediate", canSuppress: false },
  email_changed: { displayName: "Email changed", defaultMode: "immediate", canSuppress: false },
  email_change_requested: {
    displayName: "Email change requested",
    defaultMode: "immediate",
    canSuppress: false,
  },
  api_key_expiring: { displayName: "API key expiring", defaultMode: "immediate", canSuppress: true },
} as const satisfies Record<
  NotificationKind,
  { displayName: string; defaultMode: DeliveryMode; canSuppress: boolean }
>;
