import { formatMoney } from "@allot/contract/money";
import type { Database, Tx } from "@allot/db/create-database";
import { perDatabase } from "@allot/db/per-database";
import { bankAccountOwners } from "@allot/db/schema/bank-accounts";
import { budgets } from "@allot/db/schema/budgets";
import { users } from "@allot/db/schema/users";
import { and, asc, eq, sql } from "drizzle-orm";
import type { BankAccountRow } from "../account-access/find-owned-account";

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
  account_type: row.accountType,
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

const anyOfIds = sql.placeholder("ids");

// Every account read runs both: one statement text for any number of accounts, built once per handle.
const ownersOfAccounts = perDatabase((db: Database | Tx, _key: "owners_of") =>
  db
    .select({
      accountId: bankAccountOwners.bankAccountId,
      username: users.username,
      timeZone: users.timezone,
    })
    .from(bankAccountOwners)
    .innerJoin(users, eq(users.id, bankAccountOwners.userId))
    .where(sql`${bankAccountOwners.bankAccountId} = any(${anyOfIds}::uuid[])`)
    .orderBy(asc(bankAccountOwners.createdAt), asc(users.username))
    .prepare("bank_account_owners_of"),
);

const unallocatedOfAccounts = perDatabase((db: Database | Tx, _key: "unallocated_of") =>
  db
    .select({ accountId: budgets.bankAccountId, id: budgets.id })
    .from(budgets)
    .where(and(sql`${budgets.bankAccountId} = any(${anyOfIds}::uuid[])`, eq(budgets.isUnallocated, true)))
    .prepare("unallocated_budgets_of"),
);

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
  const ownerRows = await ownersOfAccounts(db, "owners_of").execute({ ids });
  const unallocatedRows = await unallocatedOfAccounts(db, "unallocated_of").execute({ ids });

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
