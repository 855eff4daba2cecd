import { randomBytes } from "node:crypto";
import type { Access } from "@allot/contract/http/route";
import { type CredentialKind, REFUSED } from "./matrix-credentials";
import type { OwnerWorld } from "./owner-world";

/** One matrix cell's request, below `/api` (as the contract's paths are). */
export interface CellRequest {
  path: string;
  payload?: unknown;
  /** The refresh cookie, for the token endpoints that read one. */
  refreshCookie?: string;
}

/** What a cell must answer: the status, and for errors the body the spec's error shapes give. */
export interface Outcome {
  status: number;
  detail?: string;
  code?: string;
  /** A 400's ValidationError keys, exactly. */
  fields?: string[];
}

/**
 * How the matrix calls one route and what a caller gets who passes its access check but owns none
 * of the owner's objects: a public route's anonymous caller, any authenticated one on a user route,
 * a password login on an interactive one, a staff login on a staff one.
 */
export interface RouteCase {
  /** The route's access class as reviewed here: the contract must say the same. */
  access: Access;
  passes: Outcome;
  /** A body valid for the owner, so a refusal is not a 400 in disguise. */
  request(world: OwnerWorld, kind: CredentialKind): CellRequest | Promise<CellRequest>;
  /** The token endpoints read the body or the cookie, never the Authorization header. */
  ignoresCredentials?: true;
}

const ok = (status: 200 | 201 | 204): Outcome => ({ status });
const notFound: Outcome = { status: 404, code: "not_found" };
const invalid = (...fields: string[]): Outcome => ({ status: 400, fields });

const INTERACTIVE_ONLY: Outcome = {
  status: 403,
  detail: "This endpoint needs an interactive login; API keys are not accepted.",
  code: "interactive_login_required",
};
const STAFF_ONLY: Outcome = {
  status: 403,
  detail: "Only staff users may use this endpoint.",
  code: "permission_denied",
};

/** What the matrix expects of one route for one kind of caller. */
export function expectedOutcome(routeCase: RouteCase, kind: CredentialKind): Outcome {
  if (routeCase.ignoresCredentials) return routeCase.passes;
  const refused = REFUSED[kind];
  if (refused) {
    // Public routes need no credential, but a bad one is still refused (docs/spec/api-spec.md §Public endpoints).
    if (kind === "none" && routeCase.access === "public") return routeCase.passes;
    return { status: 401, ...refused };
  }
  if (routeCase.access === "public" || routeCase.access === "user") return routeCase.passes;
  if (kind === "other_user_key" || kind === "staff_key") return INTERACTIVE_ONLY;
  if (routeCase.access === "interactive" || kind === "staff_non_owner") return routeCase.passes;
  return STAFF_ONLY;
}

const unknownToken = () => randomBytes(32).toString("base64url");
const newPassword = "lantern orchard quietly 4817";

/**
 * Every route of the contract, keyed `METHOD path`, classified by hand. A route added to the
 * contract without an entry here (or an entry left behind) fails the matrix: decide who may call
 * it and what a non-owner gets, then add it (docs/decisions/0019-authorization-matrix.md).
 */
export const ROUTE_CASES: Record<string, RouteCase> = {
  // --- token endpoints: a stale access token sent along must not break them
  "POST /token/": {
    access: "public",
    ignoresCredentials: true,
    passes: ok(200),
    request: (w) => ({ path: "/token/", payload: { email: w.owner.email, password: w.owner.password } }),
  },
  "POST /token/logout/": {
    access: "public",
    ignoresCredentials: true,
    passes: ok(204),
    request: () => ({ path: "/token/logout/" }),
  },
  "POST /token/refresh/": {
    access: "public",
    ignoresCredentials: true,
    passes: ok(200),
    request: async (w) => ({ path: "/token/refresh/", refreshCookie: await w.freshRefreshCookie() }),
  },

  // --- users
  "GET /v1/users/me/": { access: "user", passes: ok(200), request: () => ({ path: "/v1/users/me/" }) },
  "PATCH /v1/users/me/": {
    access: "interactive",
    // The owner's account is not the caller's: refused on the field, as for an unknown id.
    passes: invalid("default_bank_account"),
    request: (w) => ({ path: "/v1/users/me/", payload: { default_bank_account: w.account.id } }),
  },
  "GET /v1/users/": { access: "staff", passes: ok(200), request: () => ({ path: "/v1/users/" }) },
  "GET /v1/users/{username}/": {
    access: "staff",
    passes: ok(200),
    request: (w) => ({ path: `/v1/users/${w.ownerUser.username}/` }),
  },
  "PUT /v1/users/{username}/": {
    access: "staff",
    passes: ok(200),
    request: (w) => ({
      path: `/v1/users/${w.ownerUser.username}/`,
      payload: {
        name: w.ownerUser.name,
        default_bank_account: w.ownerUser.default_bank_account,
        timezone: w.ownerUser.timezone,
      },
    }),
  },
  "PATCH /v1/users/{username}/": {
    access: "staff",
    passes: ok(200),
    request: (w) => ({
      path: `/v1/users/${w.ownerUser.username}/`,
      payload: { timezone: w.ownerUser.timezone },
    }),
  },

  // --- API keys (the caller's own; the owner's key is another user's object)
  "POST /v1/users/me/api-keys/": {
    access: "interactive",
    passes: ok(201),
    request: (_w, kind) => ({ path: "/v1/users/me/api-keys/", payload: { name: `matrix ${kind}` } }),
  },
  "GET /v1/users/me/api-keys/": {
    access: "interactive",
    passes: ok(200),
    request: () => ({ path: "/v1/users/me/api-keys/" }),
  },
  "GET /v1/users/me/api-keys/{uuid}/": {
    access: "interactive",
    passes: notFound,
    request: (w) => ({ path: `/v1/users/me/api-keys/${w.apiKeyUuid}/` }),
  },
  "POST /v1/users/me/api-keys/{uuid}/revoke/": {
    access: "interactive",
    passes: notFound,
    request: (w) => ({ path: `/v1/users/me/api-keys/${w.apiKeyUuid}/revoke/`, payload: {} }),
  },
  "POST /v1/users/me/api-keys/revoke-all/": {
    access: "interactive",
    passes: ok(200),
    request: () => ({ path: "/v1/users/me/api-keys/revoke-all/", payload: {} }),
  },

  // --- credentials: change-password and change-email act on the caller; the links are public
  "POST /v1/users/me/change-password/": {
    access: "interactive",
    passes: ok(204),
    request: (w) => ({
      path: "/v1/users/me/change-password/",
      payload: {
        current_password: w.owner.password,
        new_password: newPassword,
        confirm_password: newPassword,
      },
    }),
  },
  "POST /v1/users/me/change-email/": {
    access: "interactive",
    passes: ok(201),
    request: (_w, kind) => ({
      path: "/v1/users/me/change-email/",
      payload: { new_email: `${kind.replaceAll("_", "-")}-${unknownToken().slice(0, 8)}@example.com` },
    }),
  },
  // The link endpoints are reached with an unknown token: 404 shows the call got past the
  // credential check to the token check (a real link would be used up by the first caller).
  "POST /v1/users/me/change-email/{token}/confirm/": {
    access: "public",
    passes: notFound,
    request: () => ({ path: `/v1/users/me/change-email/${unknownToken()}/confirm/`, payload: {} }),
  },
  "POST /v1/users/me/change-email/{token}/revoke/": {
    access: "public",
    passes: notFound,
    request: () => ({ path: `/v1/users/me/change-email/${unknownToken()}/revoke/`, payload: {} }),
  },
  "POST /v1/password-reset/": {
    access: "public",
    passes: ok(204),
    request: (w) => ({ path: "/v1/password-reset/", payload: { email: w.owner.email } }),
  },
  "POST /v1/password-reset/{token}/confirm/": {
    access: "public",
    passes: notFound,
    request: () => ({
      path: `/v1/password-reset/${unknownToken()}/confirm/`,
      payload: { new_password: newPassword, confirm_password: newPassword },
    }),
  },

  // --- reference data
  "GET /v1/banks/": { access: "user", passes: ok(200), request: () => ({ path: "/v1/banks/" }) },
  "GET /v1/banks/{id}/": {
    access: "user",
    passes: ok(200),
    request: (w) => ({ path: `/v1/banks/${w.bank.id}/` }),
  },
  "GET /v1/currencies/": { access: "user", passes: ok(200), request: () => ({ path: "/v1/currencies/" }) },

  // --- bank accounts
  "GET /v1/bank-accounts/": {
    access: "user",
    passes: ok(200),
    request: () => ({ path: "/v1/bank-accounts/" }),
  },
  "POST /v1/bank-accounts/": {
    access: "user",
    passes: ok(201),
    request: (w, kind) => ({
      path: "/v1/bank-accounts/",
      payload: { name: `Intruder ${kind}`, bank: w.bank.id },
    }),
  },
  "GET /v1/bank-accounts/{id}/": {
    access: "user",
    passes: notFound,
    request: (w) => ({ path: `/v1/bank-accounts/${w.account.id}/` }),
  },
  "GET /v1/bank-accounts/{id}/activity/": {
    access: "user",
    passes: notFound,
    request: (w) => ({ path: `/v1/bank-accounts/${w.account.id}/activity/?type=budget.created` }),
  },
  "GET /v1/bank-accounts/{id}/changes/": {
    access: "user",
    passes: notFound,
    request: (w) => ({ path: `/v1/bank-accounts/${w.account.id}/changes/` }),
  },
  "PUT /v1/bank-accounts/{id}/": {
    access: "user",
    passes: notFound,
    request: (w) => ({
      path: `/v1/bank-accounts/${w.account.id}/`,
      payload: {
        name: `${w.account.name} renamed`,
        bank: w.account.bank,
        account_type: w.account.account_type,
        account_number: w.account.account_number,
        currency: w.account.currency,
        auto_funding_enabled: !w.account.auto_funding_enabled,
      },
    }),
  },
  "PATCH /v1/bank-accounts/{id}/": {
    access: "user",
    passes: notFound,
    request: (w) => ({ path: `/v1/bank-accounts/${w.account.id}/`, payload: { name: "Renamed" } }),
  },
  "DELETE /v1/bank-accounts/{id}/": {
    access: "interactive",
    passes: notFound,
    request: (w) => ({ path: `/v1/bank-accounts/${w.account.id}/` }),
  },
  "POST /v1/bank-accounts/{id}/mark-imported/": {
    access: "user",
    passes: notFound,
    request: (w) => ({
      path: `/v1/bank-accounts/${w.account.id}/mark-imported/`,
      payload: { last_posted_through: "2026-03-05" },
    }),
  },

  // --- budgets
  "GET /v1/budgets/": { access: "user", passes: ok(200), request: () => ({ path: "/v1/budgets/" }) },
  "POST /v1/budgets/": {
    access: "user",
    // docs/spec/operations.md: creating in an account the caller does not own is 400 on bank_account alone.
    passes: invalid("bank_account"),
    request: (w) => ({
      path: "/v1/budgets/",
      payload: {
        bank_account: w.account.id,
        name: "Intruder budget",
        budget_type: "G",
        funding_type: "F",
        target_balance: "100.00",
        funding_amount: "1.00",
      },
    }),
  },
  "GET /v1/budgets/{id}/": {
    access: "user",
    passes: notFound,
    request: (w) => ({ path: `/v1/budgets/${w.budget.id}/` }),
  },
  "PUT /v1/budgets/{id}/": {
    access: "user",
    passes: notFound,
    request: (w) => ({
      path: `/v1/budgets/${w.budget.id}/`,
      payload: {
        name: `${w.budget.name} renamed`,
        bank_account: w.account.id,
        budget_type: w.budget.budget_type,
        funding_type: w.budget.funding_type,
        target_balance: "600.00",
        funding_amount: w.budget.funding_amount,
        funding_schedule: w.budget.funding_schedule,
        paused: true,
      },
    }),
  },
  "PATCH /v1/budgets/{id}/": {
    access: "user",
    passes: notFound,
    request: (w) => ({ path: `/v1/budgets/${w.budget.id}/`, payload: { paused: true } }),
  },
  "DELETE /v1/budgets/{id}/": {
    access: "user",
    passes: notFound,
    request: (w) => ({ path: `/v1/budgets/${w.spareBudget.id}/` }),
  },
  "POST /v1/budgets/{id}/archive/": {
    access: "user",
    passes: notFound,
    request: (w) => ({ path: `/v1/budgets/${w.budget.id}/archive/`, payload: {} }),
  },

  // --- categories (the owner's own is invisible to others: 404, not the 403 of a global one)
  "GET /v1/transaction-categories/": {
    access: "user",
    passes: ok(200),
    request: () => ({ path: "/v1/transaction-categories/?page_size=500" }),
  },
  "POST /v1/transaction-categories/": {
    access: "user",
    passes: ok(201),
    request: (_w, kind) => ({
      path: "/v1/transaction-categories/",
      payload: { group: "Intruder", name: kind },
    }),
  },
  "GET /v1/transaction-categories/{id}/": {
    access: "user",
    passes: notFound,
    request: (w) => ({ path: `/v1/transaction-categories/${w.category.id}/` }),
  },
  "PUT /v1/transaction-categories/{id}/": {
    access: "user",
    passes: notFound,
    request: (w) => ({
      path: `/v1/transaction-categories/${w.category.id}/`,
      payload: { group: w.category.group, name: "Renamed" },
    }),
  },
  "PATCH /v1/transaction-categories/{id}/": {
    access: "user",
    passes: notFound,
    request: (w) => ({ path: `/v1/transaction-categories/${w.category.id}/`, payload: { name: "Renamed" } }),
  },
  "DELETE /v1/transaction-categories/{id}/": {
    access: "user",
    passes: notFound,
    request: (w) => ({ path: `/v1/transaction-categories/${w.category.id}/` }),
  },
  "POST /v1/transaction-categories/{id}/archive/": {
    access: "user",
    passes: notFound,
    request: (w) => ({ path: `/v1/transaction-categories/${w.category.id}/archive/`, payload: {} }),
  },

  // --- transactions
  "GET /v1/transactions/": {
    access: "user",
    passes: ok(200),
    request: () => ({ path: "/v1/transactions/" }),
  },
  "POST /v1/transactions/": {
    access: "user",
    passes: invalid("bank_account"),
    request: (w) => ({
      path: "/v1/transactions/",
      payload: {
        bank_account: w.account.id,
        amount: "-1.00",
        transaction_date: "2026-03-04T10:00:00Z",
        transaction_type: "ach",
        raw_description: "Intruder",
      },
    }),
  },
  "GET /v1/transactions/{id}/": {
    access: "user",
    passes: notFound,
    request: (w) => ({ path: `/v1/transactions/${w.transaction.id}/` }),
  },
  "PUT /v1/transactions/{id}/": {
    access: "user",
    passes: notFound,
    request: (w) => ({
      path: `/v1/transactions/${w.transaction.id}/`,
      payload: { transaction_type: "fee", memo: "changed", description: "Changed" },
    }),
  },
  "PATCH /v1/transactions/{id}/": {
    access: "user",
    passes: notFound,
    request: (w) => ({ path: `/v1/transactions/${w.transaction.id}/`, payload: { memo: "changed" } }),
  },
  "DELETE /v1/transactions/{id}/": {
    access: "user",
    passes: notFound,
    request: (w) => ({ path: `/v1/transactions/${w.transaction.id}/` }),
  },
  "POST /v1/transactions/{id}/resolve-pending/": {
    access: "user",
    passes: notFound,
    request: (w) => ({
      path: `/v1/transactions/${w.pendingTransaction.id}/resolve-pending/`,
      payload: { posted_date: "2026-03-04T10:00:00Z" },
    }),
  },
  "GET /v1/transactions/{id}/image/": {
    access: "user",
    passes: notFound,
    request: (w) => ({ path: `/v1/transactions/${w.transaction.id}/image/` }),
  },
  "GET /v1/transactions/{id}/document/": {
    access: "user",
    passes: notFound,
    request: (w) => ({ path: `/v1/transactions/${w.transaction.id}/document/` }),
  },
  "POST /v1/transactions/{id}/splits/": {
    access: "user",
    passes: notFound,
    request: (w) => ({
      path: `/v1/transactions/${w.transaction.id}/splits/`,
      payload: { splits: { [w.budget.id]: "6.00" } },
    }),
  },

  // --- allocations and transfers
  "GET /v1/allocations/": { access: "user", passes: ok(200), request: () => ({ path: "/v1/allocations/" }) },
  "GET /v1/allocations/{id}/": {
    access: "user",
    passes: notFound,
    request: (w) => ({ path: `/v1/allocations/${w.allocationId}/` }),
  },
  "GET /v1/internal-transactions/": {
    access: "user",
    passes: ok(200),
    request: () => ({ path: "/v1/internal-transactions/" }),
  },
  "POST /v1/internal-transactions/": {
    access: "user",
    passes: invalid("bank_account"),
    request: (w) => ({
      path: "/v1/internal-transactions/",
      payload: {
        bank_account: w.account.id,
        amount: "1.00",
        src_budget: w.account.unallocated_budget,
        dst_budget: w.budget.id,
      },
    }),
  },
  "GET /v1/internal-transactions/{id}/": {
    access: "user",
    passes: notFound,
    request: (w) => ({ path: `/v1/internal-transactions/${w.transferId}/` }),
  },

  // --- funding
  "GET /v1/bank-accounts/{id}/funding-event-dates/": {
    access: "user",
    passes: notFound,
    request: (w) => ({
      path: `/v1/bank-accounts/${w.account.id}/funding-event-dates/?after=2026-01-01&before=2026-12-31`,
    }),
  },
  "GET /v1/bank-accounts/{id}/funding-summary/": {
    access: "user",
    passes: notFound,
    request: (w) => ({ path: `/v1/bank-accounts/${w.account.id}/funding-summary/` }),
  },
  "POST /v1/bank-accounts/{id}/run-funding/": {
    access: "user",
    passes: notFound,
    request: (w) => ({
      path: `/v1/bank-accounts/${w.account.id}/run-funding/`,
      payload: { as_of: "2026-03-15" },
    }),
  },
  "GET /v1/bank-accounts/{id}/forecast/": {
    access: "user",
    passes: notFound,
    request: (w) => ({ path: `/v1/bank-accounts/${w.account.id}/forecast/` }),
  },
  "POST /v1/bank-accounts/{id}/forecast/": {
    access: "user",
    passes: notFound,
    request: (w) => ({
      path: `/v1/bank-accounts/${w.account.id}/forecast/`,
      payload: { items: [{ description: "Bonus", amount: "100.00", schedule: "RRULE:FREQ=MONTHLY" }] },
    }),
  },
  "GET /v1/funding-occurrences/": {
    access: "user",
    passes: ok(200),
    request: () => ({ path: "/v1/funding-occurrences/" }),
  },
  "GET /v1/funding-occurrences/{id}/": {
    access: "user",
    passes: notFound,
    request: (w) => ({ path: `/v1/funding-occurrences/${w.occurrenceId}/` }),
  },

  // --- import
  "POST /v1/bank-accounts/{id}/sync-scrape/": {
    access: "user",
    passes: notFound,
    request: (w) => ({
      path: `/v1/bank-accounts/${w.account.id}/sync-scrape/`,
      payload: {
        scraped_at: "2026-03-06T08:00:00Z",
        ending_balance: "79.00",
        transactions: [
          { is_pending: false, posted_date: "2026-03-05", raw_description: "Intruder sync", amount: "-1.00" },
        ],
      },
    }),
  },
  "POST /v1/bank-accounts/{id}/transaction-details/": {
    access: "user",
    passes: notFound,
    request: (w) => ({
      path: `/v1/bank-accounts/${w.account.id}/transaction-details/`,
      payload: { details: [{ transaction: w.transaction.id, details: { merchant_name: "Intruder Shop" } }] },
    }),
  },

  // --- preferences (the caller's own)
  "GET /v1/channel-preferences/": {
    access: "user",
    passes: ok(200),
    request: () => ({ path: "/v1/channel-preferences/" }),
  },
  "PATCH /v1/channel-preferences/{channel}/": {
    access: "user",
    passes: ok(200),
    request: () => ({
      path: "/v1/channel-preferences/email/",
      payload: { digest_frequency: "weekly_friday" },
    }),
  },
  "GET /v1/notification-preferences/": {
    access: "user",
    passes: ok(200),
    request: () => ({ path: "/v1/notification-preferences/" }),
  },
  "PATCH /v1/notification-preferences/{kind}/": {
    access: "user",
    passes: ok(200),
    request: () => ({
      path: "/v1/notification-preferences/funding_complete/",
      payload: { delivery_mode: "immediate" },
    }),
  },

  // --- invitations
  "GET /v1/bank-accounts/{id}/invitations/": {
    access: "interactive",
    passes: notFound,
    request: (w) => ({ path: `/v1/bank-accounts/${w.account.id}/invitations/` }),
  },
  "POST /v1/bank-accounts/{id}/invite/": {
    access: "interactive",
    passes: notFound,
    request: (w, kind) => ({
      path: `/v1/bank-accounts/${w.account.id}/invite/`,
      payload: { invitee_email: `intruder-${kind.replaceAll("_", "-")}@example.com` },
    }),
  },
  "POST /v1/bank-accounts/{id}/invitations/{token}/cancel/": {
    access: "interactive",
    // Not an owner: the account is invisible (404); the 403 is for a co-owner who did not invite.
    passes: notFound,
    request: (w) => ({
      path: `/v1/bank-accounts/${w.account.id}/invitations/${w.invitation.token}/cancel/`,
      payload: {},
    }),
  },
  "GET /v1/users/me/invitations/": {
    access: "interactive",
    passes: ok(200),
    request: () => ({ path: "/v1/users/me/invitations/" }),
  },
  // The emailed secret is the credential: whoever holds it may read, accept or decline (the listed
  // token is not it: invitation-secret.http.test.ts).
  "GET /v1/invitations/{token}/": {
    access: "public",
    passes: ok(200),
    request: (w) => ({ path: `/v1/invitations/${w.invitation.secret}/` }),
  },
  "POST /v1/invitations/{token}/accept/": {
    access: "public",
    passes: ok(200),
    request: async (w) => ({
      path: `/v1/invitations/${await w.freshInvitationSecret()}/accept/`,
      payload: {},
    }),
  },
  "POST /v1/invitations/{token}/decline/": {
    access: "public",
    passes: ok(200),
    request: async (w) => ({
      path: `/v1/invitations/${await w.freshInvitationSecret()}/decline/`,
      payload: {},
    }),
  },

  // --- webhooks: the caller's own (the owner's webhook and its delivery are another user's objects)
  "GET /v1/webhooks/": {
    access: "user",
    passes: ok(200),
    request: () => ({ path: "/v1/webhooks/" }),
  },
  "POST /v1/webhooks/": {
    access: "user",
    passes: ok(201),
    request: (_w, kind) => ({
      path: "/v1/webhooks/",
      payload: { url: `https://hooks.example.com/matrix-${kind}`, event_types: ["*"] },
    }),
  },
  "GET /v1/webhooks/{id}/": {
    access: "user",
    passes: notFound,
    request: (w) => ({ path: `/v1/webhooks/${w.webhook.id}/` }),
  },
  "PATCH /v1/webhooks/{id}/": {
    access: "user",
    passes: notFound,
    request: (w) => ({ path: `/v1/webhooks/${w.webhook.id}/`, payload: { enabled: false } }),
  },
  "DELETE /v1/webhooks/{id}/": {
    access: "user",
    passes: notFound,
    request: (w) => ({ path: `/v1/webhooks/${w.webhook.id}/` }),
  },
  "POST /v1/webhooks/{id}/rotate-secret/": {
    access: "user",
    passes: notFound,
    request: (w) => ({ path: `/v1/webhooks/${w.webhook.id}/rotate-secret/`, payload: {} }),
  },
  "POST /v1/webhooks/{id}/test/": {
    access: "user",
    passes: notFound,
    request: (w) => ({ path: `/v1/webhooks/${w.webhook.id}/test/`, payload: {} }),
  },
  "GET /v1/webhooks/{id}/deliveries/": {
    access: "user",
    passes: notFound,
    request: (w) => ({ path: `/v1/webhooks/${w.webhook.id}/deliveries/` }),
  },
  "POST /v1/webhooks/{id}/deliveries/{delivery_id}/redeliver/": {
    access: "user",
    passes: notFound,
    request: (w) => ({
      path: `/v1/webhooks/${w.webhook.id}/deliveries/${w.webhook.deliveryId}/redeliver/`,
      payload: {},
    }),
  },
};
