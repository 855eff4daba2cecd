import { z } from "zod";
import { TransactionAllocationSchema } from "../allocations/allocation";
import { BankAccountSchema } from "../bank-accounts/bank-account";
import { BudgetSchema } from "../budgets/budget";
import { RunFundingResultSchema } from "../funding/funding";
import { dateTimeOutput, moneyOutput } from "../http/fields";
import { SyncScrapeResultSchema, TransactionDetailsResponseSchema } from "../import/import";
import { InternalTransactionSchema } from "../internal-transactions/internal-transaction";
import { BankAccountInvitationSchema } from "../invitations/invitation";
import { TransactionSchema } from "../transactions/transaction";

/*
 * Each event type's `data` (docs/spec/extensions.md §3): what its use case records, with ids, and
 * amounts as two-decimal strings. A field the event shares with a resource is that resource's
 * field, described once; the rest are described here.
 */

/**
 * Id lists in `data` hold at most this many (the first ones; the event's counts say how many
 * there were): a 20,000-row sync must not store an event that makes every later page of the
 * trail, and every webhook delivery of it, megabytes long.
 */
export const MAX_IDS_IN_EVENT = 500;

const id = (text: string) => z.uuid().meta({ description: text });
const count = (text: string) => z.number().int().meta({ description: text });
const money = (text: string) => moneyOutput().meta({ description: text });
const idList = (text: string) => z.array(z.uuid()).meta({ description: text });
const cappedIdList = (text: string) =>
  z
    .array(z.uuid())
    .max(MAX_IDS_IN_EVENT)
    .meta({ description: `${text} The first ${MAX_IDS_IN_EVENT}.` });
const sentFields = (text: string) => z.array(z.string()).meta({ description: text });

const bankAccount = id("The account's id.");
const budget = id("The budget's id.");
const transaction = id("The transaction's id.");
const unallocatedBudget = id("The id of the account's Unallocated budget.");
const fillupGoal = z
  .uuid()
  .nullable()
  .meta({ description: "The id of its fill-up goal, which went with it; null for other types." });
const allocations = (text: string) =>
  z
    .array(
      z.object({
        budget: TransactionAllocationSchema.shape.budget,
        amount: money("The budget's part of the amount."),
      }),
    )
    .meta({ description: text });
const { amount, description, pending, posted_date, transaction_type, category } = TransactionSchema.shape;
const transactionDate = dateTimeOutput().meta({ description: "When it happened." });

const BankAccountCreatedData = z
  .object({
    bank_account: bankAccount,
    ...BankAccountSchema.pick({
      name: true,
      bank: true,
      account_type: true,
      currency: true,
      posted_balance: true,
      available_balance: true,
      auto_funding_enabled: true,
    }).shape,
    unallocated_budget: id("The id of the Unallocated budget created with it."),
  })
  .meta({ id: "BankAccountCreatedEventData", description: "The account as created." });

const BankAccountUpdatedData = z
  .object({
    bank_account: bankAccount,
    changes: sentFields(
      "The changeable fields the request sent (`name`, `account_number`, `auto_funding_enabled`), changed or not.",
    ),
  })
  .meta({ id: "BankAccountUpdatedEventData", description: "Which fields a PUT or PATCH sent." });

const BankAccountImportedData = z
  .object({
    bank_account: bankAccount,
    last_imported_at: dateTimeOutput().meta({ description: "When the import was marked complete." }),
    last_posted_through: z.iso
      .date()
      .meta({ description: "The latest posted date imported so far (it never moves back)." }),
  })
  .meta({ id: "BankAccountImportedEventData", description: "An import marked complete." });

const BankAccountOwnerAddedData = z
  .object({
    bank_account: bankAccount,
    owner: z.string().meta({ description: "The new owner's username." }),
    invitation: id("The invitation they accepted."),
  })
  .meta({ id: "BankAccountOwnerAddedEventData", description: "A new co-owner." });

const BudgetCreatedData = z
  .object({
    budget,
    ...BudgetSchema.pick({
      name: true,
      budget_type: true,
      funding_type: true,
      target_balance: true,
      funding_amount: true,
      target_date: true,
      paused: true,
      fillup_goal: true,
    }).shape,
  })
  .meta({ id: "BudgetCreatedEventData", description: "The budget as created." });

/** A PUT or PATCH of a budget: the fields it sent. */
const BudgetChangeData = z
  .object({
    budget,
    changes: sentFields("The fields the request sent, changed or not."),
  })
  .meta({
    id: "BudgetChangeEventData",
    description: "Which fields a PUT or PATCH sent (`budget.updated`, `budget.paused`).",
  });

const BudgetResumedData = BudgetChangeData.extend({
  warnings: z
    .array(z.string())
    .meta({ description: "The funding events it missed while paused, dropped on resuming." }),
}).meta({ id: "BudgetResumedEventData", description: "A budget resumed, and what it missed." });

const BudgetCompletedData = BudgetChangeData.extend(
  BudgetSchema.pick({ target_balance: true, funded_amount: true }).shape,
).meta({
  id: "BudgetCompletedEventData",
  description: "A Goal completed by lowering its target to what it was funded.",
});

const BudgetArchivedData = z
  .object({
    budget,
    fillup_goal: fillupGoal,
    unallocated_budget: unallocatedBudget,
    swept_to_unallocated: money(
      "Its balance, moved to Unallocated; negative: an overdraft Unallocated covered.",
    ),
  })
  .meta({ id: "BudgetArchivedEventData", description: "A budget archived and its balance swept." });

const BudgetDeletedData = z
  .object({
    budget,
    name: BudgetSchema.shape.name,
    fillup_goal: fillupGoal,
    unallocated_budget: unallocatedBudget,
    moved_to_unallocated: money("Its balance, moved to Unallocated; negative: taken from Unallocated."),
    transfers_undone: count("Its funding transfers undone with it."),
  })
  .meta({ id: "BudgetDeletedEventData", description: "A budget deleted and its money returned." });

const TransactionCreatedData = z
  .object({
    transaction,
    amount,
    transaction_date: transactionDate,
    posted_date,
    transaction_type,
    pending,
    description,
    category,
    budget: id("The budget it was allocated to: the one auto_spend chose, or Unallocated."),
    auto_spend: z.boolean().meta({ description: "A budget's auto_spend category chose the budget." }),
  })
  .meta({ id: "TransactionCreatedEventData", description: "The transaction as created." });

const TransactionUpdatedData = z
  .object({
    transaction,
    changes: sentFields(
      "The changeable fields the request sent (`transaction_type`, `memo`, `description`, `image`, `document`), changed or not.",
    ),
  })
  .meta({ id: "TransactionUpdatedEventData", description: "Which fields a PUT or PATCH sent." });

const TransactionDeletedData = z
  .object({
    transaction,
    amount,
    transaction_date: transactionDate,
    pending,
    description,
    allocations: allocations("What each budget held of it, given back."),
  })
  .meta({ id: "TransactionDeletedEventData", description: "The transaction deleted." });

const TransactionPostedData = z
  .object({
    transaction,
    amount: money("The posted amount."),
    pending_amount: money("The amount while it was pending."),
    posted_date,
  })
  .meta({ id: "TransactionPostedEventData", description: "A pending transaction posted." });

const TransactionSplitData = z
  .object({
    transaction,
    amount,
    allocations: allocations("The allocations as they now stand, the Unallocated remainder included."),
  })
  .meta({ id: "TransactionSplitEventData", description: "A transaction divided among budgets." });

const TransactionEnrichedData = z
  .object({
    ...TransactionDetailsResponseSchema.pick({
      applied: true,
      skipped_has_details: true,
      skipped_pending: true,
      not_found: true,
    }).shape,
    overwrite: z.boolean().meta({ description: "The request replaced existing details." }),
    transactions: cappedIdList("The transactions whose details were stored."),
    budgets: cappedIdList(
      "The budgets whose balance moved: an Unallocated part routed by a category's auto_spend.",
    ),
  })
  .meta({
    id: "TransactionEnrichedEventData",
    description: "Provider details stored (transaction-details).",
  });

const TransferCreatedData = InternalTransactionSchema.extend({
  completed_budgets: idList("The Goals the transfer completed."),
}).meta({ id: "TransferCreatedEventData", description: "The transfer, as the API gives it." });

const FundingRunData = z
  .object({
    ...RunFundingResultSchema.pick({
      transfers: true,
      occurrences_completed: true,
      occurrences_partial: true,
    }).shape,
    funded_budgets: idList("The budgets the run moved money into."),
    completed_budgets: idList("The Goals the run completed."),
  })
  .meta({
    id: "FundingRunEventData",
    description: "A funding run that moved money (`funding.completed`, `funding.underfunded`).",
  });

const ImportSyncedData = z
  .object({
    ...SyncScrapeResultSchema.pick({
      inserted_posted: true,
      inserted_pending: true,
      skipped_posted: true,
      deleted_pending: true,
      balance_mismatch: true,
      last_posted_through: true,
    }).shape,
    new_transaction_ids: cappedIdList("The ids of the inserted transactions, in the order sent."),
  })
  .meta({ id: "ImportSyncedEventData", description: "A sync-scrape's counts and new transactions." });

const InvitationCreatedData = BankAccountInvitationSchema.pick({
  id: true,
  invitee_email: true,
  expires_at: true,
}).meta({ id: "InvitationCreatedEventData", description: "An invitation sent." });

/** An invitation answered or taken back: which one, and whom it invited. */
const InvitationData = z
  .object({
    invitation: id("The invitation's id."),
    invitee_email: BankAccountInvitationSchema.shape.invitee_email,
  })
  .meta({
    id: "InvitationEventData",
    description:
      "An invitation answered or taken back (`invitation.accepted`, `invitation.declined`, `invitation.cancelled`).",
  });

/**
 * Every event type, by name, with the schema of its `data` (activity-event-types.ts lists the
 * names from here). Types that record the same facts share a schema.
 */
export const ACTIVITY_EVENT_DATA = {
  "bank_account.created": BankAccountCreatedData,
  "bank_account.updated": BankAccountUpdatedData,
  "bank_account.imported": BankAccountImportedData,
  "bank_account.owner_added": BankAccountOwnerAddedData,
  "budget.created": BudgetCreatedData,
  "budget.updated": BudgetChangeData,
  "budget.paused": BudgetChangeData,
  "budget.resumed": BudgetResumedData,
  "budget.archived": BudgetArchivedData,
  "budget.deleted": BudgetDeletedData,
  "budget.completed": BudgetCompletedData,
  "transaction.created": TransactionCreatedData,
  "transaction.updated": TransactionUpdatedData,
  "transaction.deleted": TransactionDeletedData,
  "transaction.posted": TransactionPostedData,
  "transaction.split": TransactionSplitData,
  "transaction.enriched": TransactionEnrichedData,
  "transfer.created": TransferCreatedData,
  "funding.completed": FundingRunData,
  "funding.underfunded": FundingRunData,
  "import.synced": ImportSyncedData,
  "invitation.created": InvitationCreatedData,
  "invitation.accepted": InvitationData,
  "invitation.declined": InvitationData,
  "invitation.cancelled": InvitationData,
} as const satisfies Record<`${string}.${string}`, z.ZodType<Record<string, unknown>>>;

/** The `data` of an event of type `T` (of any type, without one). */
export type ActivityEventData<T extends keyof typeof ACTIVITY_EVENT_DATA = keyof typeof ACTIVITY_EVENT_DATA> =
  z.output<(typeof ACTIVITY_EVENT_DATA)[T]>;

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
 * A `data` of each event type as its use case would record it: a worked example for webhook
 * consumers, and what tests that write events themselves use (the list's filters, paging,
 * retention, deliveries). `activity-event-data.test.ts` holds each to its schema.
 */
export const ACTIVITY_EVENT_EXAMPLES: { [T in keyof typeof ACTIVITY_EVENT_DATA]: ActivityEventData<T> } = {
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
