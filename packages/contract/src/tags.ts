/** The API's areas, each route tagged with one: the OpenAPI document lists them in this order. */
export const API_TAGS: Record<string, string> = {
  auth: "Interactive sessions: log in with email and password for a short-lived access token (a Bearer JWT, within 60 minutes); the refresh token lives in an HttpOnly cookie sent only to `/api/token/`.",
  users:
    "The caller's own user (`/v1/users/me/`), password change and the verified login-email change; for staff, every user. Writes to `/v1/users/me/` need an interactive login.",
  "password-reset":
    "Forgotten passwords: a reset link by email, then a new password with the link's token (public).",
  "api-keys":
    "Long-lived keys for machine clients (`Authorization: Api-Key <key>`). Managed with an interactive login only; the plaintext key is shown once.",
  banks: "Read-only reference data: the banks an account can be held at.",
  currencies: "Read-only reference data: the ISO 4217 currencies.",
  "bank-accounts":
    "Bank accounts the caller co-owns. Each has an Unallocated budget; everything else (budgets, transactions, funding) hangs below one.",
  activity: "The audit trail of a bank account: who changed what, newest first.",
  changes: "Delta sync: what changed in a bank account since a cursor, deletions included.",
  budgets:
    "Budgets divide an account's money: `G` goal, `R` recurring (with its `A` associated fill-up goal) and `C` capped; funded on RRULE schedules.",
  "transaction-categories":
    "Categories (`group : name`) for transactions and allocations: a global base set plus the caller's and co-owners' own.",
  transactions:
    "Bank transactions of an account, each divided into allocations to budgets; receipts (image, document) may be attached.",
  allocations: "Read-only: the parts of transactions assigned to budgets and categories.",
  "internal-transactions":
    "Write-once transfers between two budgets of one account; reverse one by creating the opposite transfer.",
  funding:
    "The funding engine: upcoming funding dates, the per-schedule summary, and running due fund and recurrence events.",
  forecast:
    "Will the money be there: the funding engine run forward without writing, with what-ifs (docs/spec/extensions.md §8).",
  "funding-occurrences": "Read-only: the recorded funding and recurrence events of budgets and their status.",
  import:
    "For importers (usually with an API key): sync a scrape snapshot, attach provider details, mark an import complete.",
  preferences:
    "How the caller is notified: digest frequency per channel and delivery mode per notification kind.",
  invitations:
    "Co-ownership invitations: sent and managed by an owner with an interactive login; read, accepted or declined by the emailed link's token (public).",
  webhooks:
    "Signed HTTP callbacks (Standard Webhooks) for account events, with their delivery log, redelivery and secret rotation.",
};
