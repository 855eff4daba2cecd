import type { TransactionAllocationView } from "@allot/contract/allocations/allocation";
import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { budgetRoutes } from "@allot/contract/budgets/routes";
import type { TransactionView } from "@allot/contract/transactions/transaction";
import { localDate } from "@allot/domain/calendar/local-days";
import type { Client } from "@allot/sdk/client";
import type { Column } from "../format/columns";
import { emitRecord, type OutputOptions } from "../format/emit";

/** Budget id → name within an account, archived budgets included (old allocations point at them). */
export type BudgetNames = ReadonlyMap<string, string>;

export async function budgetNamesOf(client: Client, accountId: string): Promise<BudgetNames> {
  const names = new Map<string, string>();
  for await (const budget of client.paginate(budgetRoutes.list, { bank_account: accountId, page_size: 500 }))
    names.set(budget.id, budget.name);
  return names;
}

/** What a person reads beside an account's transactions: its budgets' names and its calendar. */
export interface AccountLabels {
  budgetNames: BudgetNames;
  /** The account's time zone: a transaction's day is its day there, as the API reads bare dates. */
  timeZone: string;
}

/** Nothing to look up for `--json`, which prints the API's objects as they are. */
const NO_LABELS: AccountLabels = { budgetNames: new Map(), timeZone: "UTC" };

export async function accountLabelsOf(
  client: Client,
  accountId: string,
  options: OutputOptions,
): Promise<AccountLabels> {
  if (options.json) return NO_LABELS;
  const [budgetNames, account] = await Promise.all([
    budgetNamesOf(client, accountId),
    client.call(bankAccountRoutes.get, { id: accountId }),
  ]);
  return { budgetNames, timeZone: account.timezone };
}

const day = (dateTime: string | null, timeZone: string) =>
  dateTime === null ? null : localDate(new Date(dateTime), timeZone);
const budgetName = (names: BudgetNames, id: string | null) => (id ? (names.get(id) ?? id) : "-");

/** "Groceries" for one allocation; "Groceries 60.00, Rent 20.00" when the amount is split. */
function budgetsCell(row: TransactionView, names: BudgetNames): string {
  const { allocations } = row;
  if (allocations.length === 1) return budgetName(names, allocations[0]?.budget ?? null);
  return allocations.map((a) => `${budgetName(names, a.budget)} ${a.amount}`).join(", ");
}

/** `allot transactions list`: one line a transaction, with the id to pass to the other commands. */
export const listColumns = ({ budgetNames: names, timeZone }: AccountLabels): Column<TransactionView>[] => [
  { header: "Id", value: (row) => row.id },
  { header: "Date", value: (row) => day(row.transaction_date ?? row.posted_date, timeZone) },
  { header: "Description", value: (row) => row.description },
  { header: "Amount", value: (row) => row.amount, money: true },
  { header: "Category", value: (row) => row.category_full_name },
  { header: "Budgets", value: (row) => budgetsCell(row, names) },
  { header: "Pending", value: (row) => (row.pending ? "yes" : "no") },
];

/** `show`, `edit`, `resolve`, `create`: the fields a person reads, one a line. */
const recordFields = ({ budgetNames: names, timeZone }: AccountLabels): Column<TransactionView>[] => [
  { header: "Id", value: (row) => row.id },
  { header: "Date", value: (row) => day(row.transaction_date, timeZone) },
  { header: "Posted", value: (row) => day(row.posted_date, timeZone) },
  { header: "Description", value: (row) => row.description },
  { header: "Bank text", value: (row) => row.raw_description },
  { header: "Amount", value: (row) => row.amount, money: true },
  { header: "Type", value: (row) => row.transaction_type },
  { header: "Pending", value: (row) => (row.pending ? "yes" : "no") },
  { header: "Category", value: (row) => row.category_full_name },
  { header: "Merchant", value: (row) => row.merchant_name },
  { header: "Memo", value: (row) => row.memo },
  { header: "Budgets", value: (row) => budgetsCell(row, names) },
  { header: "Available balance", value: (row) => row.bank_account_available_balance, money: true },
  { header: "Image", value: (row) => row.image && `${row.image} (${row.image_width}×${row.image_height})` },
  { header: "Document", value: (row) => row.document },
];

/**
 * A transaction's allocations after a split: where the money went, and the budget's running
 * balance just after that allocation (`budget_balance`, in date order) — not its balance today,
 * which later transactions and transfers have moved on.
 */
export const allocationColumns = (names: BudgetNames): Column<TransactionAllocationView>[] => [
  { header: "Budget", value: (row) => budgetName(names, row.budget) },
  { header: "Amount", value: (row) => row.amount, money: true },
  { header: "Running balance", value: (row) => row.budget_balance, money: true },
];

/** One transaction for people (its budgets by name), or as the API's object for scripts. */
export async function emitTransaction(
  client: Client,
  row: TransactionView,
  options: OutputOptions,
): Promise<void> {
  emitRecord(row, recordFields(await accountLabelsOf(client, row.bank_account, options)), options);
}
