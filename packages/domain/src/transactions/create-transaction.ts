import type { RouteInput } from "@allot/contract/http/route";
import { formatMoney, toMoney, ZERO } from "@allot/contract/money";
import type { transactionRoutes } from "@allot/contract/transactions/routes";
import { transactionAllocations } from "@allot/db/schema/transaction-allocations";
import { transactions } from "@allot/db/schema/transactions";
import { assertAccountCurrency } from "../account-access/account-currency";
import { accountNamedIn, writeAccount } from "../account-access/write-account";
import type { TransactionFiles } from "../attachments/transaction-files";
import { unallocatedBudgetId } from "../budgets/unallocated-budget-id";
import { accountTimeZone } from "../calendar/account-time-zone";
import { instantOfText } from "../calendar/instant-of-text";
import { referenceCategory } from "../categories/reference-category";
import { formatFullName } from "../categories/visible-categories";
import { moneyText } from "../events/summary-text";
import { changeAccountBalances, changeBudgetBalance, lockBudgets } from "../ledger/balances";
import type { UseCaseContext } from "../shared/use-case-context";
import { findAutoSpendBudget } from "./auto-spend";
import { ledgerKeyOf, refreshSnapshotsFrom } from "./transaction-ledger";
import { loadTransactionView } from "./transaction-view";

/**
 * A new transaction in one of the caller's accounts, with one allocation of its whole amount: to
 * the Unallocated budget, or — for a posted row whose category exactly one active budget lists in
 * auto_spend — to that budget. Posted rows move both account balances, pending ones the available
 * balance only; the allocated budget moves by the amount, so the invariant holds. Dates are read in
 * the account's calendar (a bare date is the start of that local day). Its receipt files were
 * staged (stored) under the new row's id, `files.transactionId`, and this commit references them.
 */
export async function createTransaction(
  ctx: UseCaseContext<"publicBaseUrl"> & { files: TransactionFiles },
  input: RouteInput<typeof transactionRoutes.create>,
) {
  const { actor, files } = ctx;
  const target = accountNamedIn("bank_account", input.bank_account, actor);
  return writeAccount(ctx, target, async (tx, account) => {
    assertAccountCurrency(input, ["amount_currency"], account.currency);
    const category = input.category ? await referenceCategory(tx, actor.userId, input.category) : null;
    const amount = toMoney(input.amount);
    const pending = input.pending ?? false;
    const timeZone = await accountTimeZone(tx, account.id);
    const transactionDate = instantOfText(input.transaction_date, timeZone);

    const unallocatedId = await unallocatedBudgetId(tx, account.id);
    const routedId =
      category && !pending
        ? await findAutoSpendBudget(tx, account.id, formatFullName(category.group, category.name))
        : null;
    const budgetId = routedId ?? unallocatedId;
    const locked = await lockBudgets(tx, account.id, [budgetId]);

    const [row] = await tx
      .insert(transactions)
      .values({
        id: files.transactionId,
        bankAccountId: account.id,
        amount: formatMoney(amount),
        transactionDate,
        postedDate: input.posted_date ? instantOfText(input.posted_date, timeZone) : transactionDate,
        transactionType: input.transaction_type,
        pending,
        memo: input.memo ?? null,
        rawDescription: input.raw_description,
        description: input.description || input.raw_description,
        categoryId: category?.id ?? null,
        merchantAddress: input.merchant_address ?? null,
        merchantCity: input.merchant_city ?? null,
        merchantRegion: input.merchant_region ?? null,
        merchantCountry: input.merchant_country ?? null,
        merchantLatitude: input.merchant_latitude ?? null,
        merchantLongitude: input.merchant_longitude ?? null,
        bankTransactionId: input.bank_transaction_id ?? null,
        ...files.columns(),
      })
      .returning();
    if (!row) throw new Error("transaction insert returned nothing");
    await files.commit(tx, []);
    await tx.insert(transactionAllocations).values({
      transactionId: row.id,
      bankAccountId: account.id,
      budgetId,
      amount: formatMoney(amount),
      categoryId: category?.id ?? null,
    });

    await changeAccountBalances(tx, account.id, {
      posted: pending ? ZERO : amount,
      available: amount,
      transactions: 1,
    });
    await changeBudgetBalance(tx, budgetId, amount);
    await refreshSnapshotsFrom(tx, account.id, ledgerKeyOf(row), {
      transactions: true,
      budgetIds: [budgetId],
    });
    // One event whatever the allocation: auto_spend routing is part of creating the row.
    const routedName = routedId ? locked.get(routedId)?.name : undefined;
    return {
      event: {
        accountId: account.id,
        type: "transaction.created",
        says:
          `created the ${pending ? "pending " : ""}transaction ${row.description} of ` +
          `${moneyText(amount, account.currency)}` +
          (routedName !== undefined ? `, allocated to ${routedName} (auto_spend)` : ""),
        data: {
          transaction: row.id,
          amount: formatMoney(amount),
          transaction_date: row.transactionDate.toISOString(),
          posted_date: row.postedDate.toISOString(),
          transaction_type: row.transactionType,
          pending,
          description: row.description,
          category: row.categoryId,
          budget: budgetId,
          auto_spend: routedId !== null,
        },
      },
      result: await loadTransactionView(tx, row.id, ctx.services),
    };
  });
}
