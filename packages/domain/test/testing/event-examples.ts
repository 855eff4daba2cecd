import type { ActivityEventData } from "@allot/contract/activity/activity-event-data";
import type { ActivityEventType } from "@allot/contract/activity/activity-event-types";
import type { AccountChange } from "../../src/activity/record-event";

const ACCOUNT = "7c4e2b19-5a3d-4f8e-a6b1-9d0c3e2f4a58";
const BUDGET = "b7d3e1f2-4a6c-4b8e-9d0f-1a2b3c4d5e6f";
const UNALLOCATED = "e1a7c3d5-2b4f-4e6a-8c9d-0f1e2a3b4c5d";
const TRANSACTION = "4a8c2e6f-1b3d-4f5a-9c7e-2d4f6a8b0c1e";
const INVITATION = "1c3e5a7b-9d2f-4b6c-8e0a-2c4e6f8a0b2d";
const AT = "2026-05-02T09:00:00.000Z";

const budgetChange = { budget: BUDGET, changes: ["target_balance"] };
const funding = {
  transfers: 2,
  occurrences_completed: 2,
  occurrences_partial: 0,
  funded_budgets: [BUDGET],
  completed_budgets: [],
};
const invitation = { invitation: INVITATION, invitee_email: "grace@example.com" };

/**
 * A `data` of each event type as its use case would record it, for tests that write events
 * themselves (the list's filters, paging, retention, deliveries): the answers they read are
 * checked against the contract, as every answer of the suite is.
 */
export const EXAMPLE_EVENT_DATA: { [T in ActivityEventType]: ActivityEventData<T> } = {
  "bank_account.created": {
    bank_account: ACCOUNT,
    name: "Everyday checking",
    bank: "5d0c8a1e-3b6f-4a2d-9e7c-1f4b8a6d2c93",
    account_type: "C",
    currency: "USD",
    posted_balance: "2450.00",
    available_balance: "2391.25",
    auto_funding_enabled: true,
    unallocated_budget: UNALLOCATED,
  },
  "bank_account.updated": { bank_account: ACCOUNT, changes: ["name"] },
  "bank_account.imported": { bank_account: ACCOUNT, last_imported_at: AT, last_posted_through: "2026-05-01" },
  "bank_account.owner_added": { bank_account: ACCOUNT, owner: "grace@example.com", invitation: INVITATION },
  "budget.created": {
    budget: BUDGET,
    name: "Groceries",
    budget_type: "C",
    funding_type: "F",
    target_balance: "400.00",
    funding_amount: "100.00",
    target_date: null,
    paused: false,
    fillup_goal: null,
  },
  "budget.updated": budgetChange,
  "budget.paused": { budget: BUDGET, changes: ["paused"] },
  "budget.resumed": { budget: BUDGET, changes: ["paused"], warnings: [] },
  "budget.archived": {
    budget: BUDGET,
    fillup_goal: null,
    unallocated_budget: UNALLOCATED,
    swept_to_unallocated: "12.50",
  },
  "budget.deleted": {
    budget: BUDGET,
    name: "Groceries",
    fillup_goal: null,
    unallocated_budget: UNALLOCATED,
    moved_to_unallocated: "0.00",
    transfers_undone: 0,
  },
  "budget.completed": { ...budgetChange, target_balance: "300.00", funded_amount: "300.00" },
  "transaction.created": {
    transaction: TRANSACTION,
    amount: "-58.20",
    transaction_date: AT,
    posted_date: AT,
    transaction_type: "signature_purchase",
    pending: false,
    description: "Green Valley Market",
    category: null,
    budget: UNALLOCATED,
    auto_spend: false,
  },
  "transaction.updated": { transaction: TRANSACTION, changes: ["memo"] },
  "transaction.deleted": {
    transaction: TRANSACTION,
    amount: "-58.20",
    transaction_date: AT,
    pending: false,
    description: "Green Valley Market",
    allocations: [{ budget: UNALLOCATED, amount: "-58.20" }],
  },
  "transaction.posted": {
    transaction: TRANSACTION,
    amount: "-60.00",
    pending_amount: "-58.20",
    posted_date: AT,
  },
  "transaction.split": {
    transaction: TRANSACTION,
    amount: "-58.20",
    allocations: [
      { budget: BUDGET, amount: "-50.00" },
      { budget: UNALLOCATED, amount: "-8.20" },
    ],
  },
  "transaction.enriched": {
    applied: 1,
    skipped_has_details: 0,
    skipped_pending: 0,
    not_found: 0,
    overwrite: false,
    transactions: [TRANSACTION],
    budgets: [],
  },
  "transfer.created": {
    id: "8f0b2d4e-6a1c-4e3b-9d5f-7a9c1e3b5d7f",
    bank_account: ACCOUNT,
    amount: "75.00",
    amount_currency: "USD",
    src_budget: UNALLOCATED,
    dst_budget: BUDGET,
    actor: null,
    effective_date: AT,
    src_budget_balance: "137.40",
    src_budget_balance_currency: "USD",
    dst_budget_balance: "229.20",
    dst_budget_balance_currency: "USD",
    created_at: AT,
    modified_at: AT,
    completed_budgets: [],
  },
  "funding.completed": funding,
  "funding.underfunded": { ...funding, occurrences_partial: 1 },
  "import.synced": {
    inserted_posted: 3,
    inserted_pending: 0,
    skipped_posted: 40,
    deleted_pending: 0,
    balance_mismatch: null,
    last_posted_through: "2026-05-01",
    new_transaction_ids: [TRANSACTION],
  },
  "invitation.created": { id: INVITATION, invitee_email: "grace@example.com", expires_at: AT },
  "invitation.accepted": invitation,
  "invitation.declined": invitation,
  "invitation.cancelled": invitation,
};

/** A change of `type` to the account, with the example data of its type. */
export const exampleChange = <T extends ActivityEventType>(
  accountId: string,
  type: T,
  says: string,
): AccountChange<T> => ({ accountId, type, says, data: EXAMPLE_EVENT_DATA[type] });
