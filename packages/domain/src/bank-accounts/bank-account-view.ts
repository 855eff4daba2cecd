import type { ACCOUNT_TYPES } from "@allot/contract/bank-accounts/bank-account";
import type { Database, Tx } from "@allot/db/create-database";
import { bankAccountOwners } from "@allot/db/schema/bank-accounts";
import { budgets } from "@allot/db/schema/budgets";
import { users } from "@allot/db/schema/users";
import { and, asc, eq, inArray } from "drizzle-orm";
import { formatMoney } from "../shared/money";
import type { BankAccountRow } from "./find-owned-account";

type AccountType = (typeof ACCOUNT_TYPES)[number];

/** The wire BankAccount: money as two-decimal strings with `_currency` siblings. */
export const toBankAccountView = (
  row: BankAccountRow,
  owners: string[],
  unallocatedBudget: string | null,
  timeZone: string,
) => ({
  id: row.id,
  name: row.name,
  bank: row.bankId,
  owners,
  account_type: row.accountType as AccountType,
  account_number: row.accountNumber,
  currency: row.currency,
  posted_balance: formatMoney(row.postedBalance),
  posted_balance_currency: row.currency,
  available_balance: formatMoney(row.availableBalance),
  available_balance_currency: row.currency,
  unallocated_budget: unallocatedBudget,
  auto_funding_enabled: row.autoFundingEnabled,
  last_imported_at: row.lastImportedAt ? row.lastImportedAt.toISOString() : null,
  last_posted_through: row.lastPostedThrough,
  timezone: timeZone,
  created_at: row.createdAt.toISOString(),
  modified_at: row.modifiedAt.toISOString(),
});

export type BankAccountView = ReturnType<typeof toBankAccountView>;

/**
 * Views of several accounts: owners (oldest owner first, whose time zone is the account's calendar)
 * and Unallocated budgets in two queries.
 */
export async function loadBankAccountViews(
  db: Database | Tx,
  rows: BankAccountRow[],
): Promise<BankAccountView[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const ownerRows = await db
    .select({
      accountId: bankAccountOwners.bankAccountId,
      username: users.username,
      timeZone: users.timezone,
    })
    .from(bankAccountOwners)
    .innerJoin(users, eq(users.id, bankAccountOwners.userId))
    .where(inArray(bankAccountOwners.bankAccountId, ids))
    .orderBy(asc(bankAccountOwners.createdAt), asc(users.username));
  const unallocatedRows = await db
    .select({ accountId: budgets.bankAccountId, id: budgets.id })
    .from(budgets)
    .where(and(inArray(budgets.bankAccountId, ids), eq(budgets.isUnallocated, true)));

  const owners = new Map<string, string[]>();
  const timeZones = new Map<string, string>();
  for (const { accountId, username, timeZone } of ownerRows) {
    owners.set(accountId, [...(owners.get(accountId) ?? []), username]);
    if (!timeZones.has(accountId)) timeZones.set(accountId, timeZone);
  }
  const unallocated = new Map(unallocatedRows.map(({ accountId, id }) => [accountId, id]));
  return rows.map((row) =>
    toBankAccountView(
      row,
      owners.get(row.id) ?? [],
      unallocated.get(row.id) ?? null,
      timeZones.get(row.id) ?? "UTC",
    ),
  );
}

export async function loadBankAccountView(db: Database | Tx, row: BankAccountRow): Promise<BankAccountView> {
  const [view] = await loadBankAccountViews(db, [row]);
  if (!view) throw new Error("bank account view missing");
  return view;
}
