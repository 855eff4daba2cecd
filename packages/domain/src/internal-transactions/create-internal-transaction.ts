import type { RouteInput } from "@allot/contract/http/route";
import type { internalTransactionRoutes } from "@allot/contract/internal-transactions/routes";
import { toMoney } from "@allot/contract/money";
import { internalTransactions } from "@allot/db/schema/internal-transactions";
import { eq } from "drizzle-orm";
import { currencyKeyErrors } from "../account-access/account-currency";
import { accountNamedIn, writeAccount } from "../account-access/write-account";
import { accountTimeZone } from "../calendar/account-time-zone";
import { instantOfText } from "../calendar/instant-of-text";
import { moneyText } from "../events/summary-text";
import { lockBudgets } from "../ledger/balances";
import { recordTransfer } from "../ledger/transfers";
import { ValidationFailed } from "../shared/errors";
import type { UseCaseContext } from "../shared/use-case-context";
import { addError, type FieldErrors } from "../shared/validation";
import { toInternalTransactionView } from "./internal-transaction-view";

/**
 * Moves `amount` from one budget of an account to another and records it, with the caller as
 * actor. The account row is locked first, then both budgets (ledger order). The source may go
 * negative. Archived budgets are refused: archiving has already swept their money to Unallocated,
 * and a transfer would quietly refill a budget nobody funds or sees any more.
 */
export async function createInternalTransaction(
  ctx: UseCaseContext,
  input: RouteInput<typeof internalTransactionRoutes.create>,
) {
  const { actor } = ctx;
  const target = accountNamedIn("bank_account", input.bank_account, actor);
  return writeAccount(ctx, target, async (tx, account) => {
    const errors: FieldErrors = currencyKeyErrors({ ...input }, ["amount_currency"], account.currency);
    const amount = toMoney(input.amount);
    if (amount.lte(0)) addError(errors, "amount", "Must be greater than zero.");
    if (input.src_budget === input.dst_budget)
      addError(errors, "dst_budget", "Must be a different budget from src_budget.");

    const locked = await lockBudgets(tx, account.id, [input.src_budget, input.dst_budget]);
    const source = locked.get(input.src_budget);
    const destination = locked.get(input.dst_budget);
    for (const [field, id, budget] of [
      ["src_budget", input.src_budget, source],
      ["dst_budget", input.dst_budget, destination],
    ] as const) {
      if (!budget) addError(errors, field, `Invalid pk "${id}" - object does not exist.`);
      else if (budget.archived)
        addError(errors, field, "The budget is archived; transfers need active budgets.");
    }
    if (Object.keys(errors).length > 0 || !source || !destination) throw new ValidationFailed(errors);

    const recorded = await recordTransfer(tx, {
      accountId: account.id,
      source,
      destination,
      amount,
      actorId: actor.userId,
      effectiveDate:
        input.effective_date === undefined
          ? undefined
          : instantOfText(input.effective_date, await accountTimeZone(tx, account.id)),
    });
    // Re-read: the snapshot refresh ran after the insert returned its row.
    const [row] = await tx
      .select()
      .from(internalTransactions)
      .where(eq(internalTransactions.id, recorded.id));
    if (!row) throw new Error("internal transaction vanished");
    const transfer = toInternalTransactionView(row, account.currency);
    // docs/spec/extensions.md §3: the event's data is the internal transaction as the API gives it.
    return {
      event: {
        accountId: account.id,
        type: "transfer.created",
        says: `moved ${moneyText(amount, account.currency)} from ${source.name} to ${destination.name}`,
        data: { ...transfer, completed_budgets: recorded.completedBudgets },
      },
      result: transfer,
    };
  });
}
