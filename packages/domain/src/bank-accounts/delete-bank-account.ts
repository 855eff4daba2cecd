import type { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { transactions } from "@allot/db/schema/transactions";
import { users } from "@allot/db/schema/users";
import { and, eq, isNotNull, or } from "drizzle-orm";
import { writeAccount } from "../account-access/write-account";
import { storedKeys, type TransactionFiles } from "../attachments/transaction-files";
import type { UseCaseContext } from "../shared/use-case-context";

/**
 * Deletes the account; its owners, budgets and everything recorded under it go with it (foreign
 * keys cascade). Users who had it as their default account are left with none. Its transactions'
 * receipt files are queued for removal by the cascade (a trigger) and released to `files`.
 */
export async function deleteBankAccount(
  ctx: UseCaseContext & { files: TransactionFiles },
  { id }: RouteInput<typeof bankAccountRoutes.delete>,
) {
  await writeAccount(ctx, { accountId: id, owner: ctx.actor }, async (tx, account) => {
    // users.default_bank_account_id has no foreign key (the tables refer to each other).
    await tx
      .update(users)
      .set({ defaultBankAccountId: null })
      .where(eq(users.defaultBankAccountId, account.id));
    const withFiles = await tx
      .select({ imageKey: transactions.imageKey, documentKey: transactions.documentKey })
      .from(transactions)
      .where(
        and(
          eq(transactions.bankAccountId, account.id),
          or(isNotNull(transactions.imageKey), isNotNull(transactions.documentKey)),
        ),
      );
    await tx.delete(bankAccounts).where(eq(bankAccounts.id, account.id));
    ctx.files.release(withFiles.flatMap(storedKeys));
    // Its trail goes with it: there is nothing left to record the deletion under.
    return { event: null, result: undefined };
  });
}
