import type { deleteBankAccountRoute } from "@allot/contract/bank-accounts/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { users } from "@allot/db/schema/users";
import { eq } from "drizzle-orm";
import type { UseCaseContext } from "../shared/use-case-context";
import { findOwnedAccount } from "./find-owned-account";

/**
 * Deletes the account; its owners, budgets and everything recorded under it go with it (foreign
 * keys cascade). Users who had it as their default account are left with none.
 */
export async function deleteBankAccount(
  { db, actor }: UseCaseContext,
  { id }: RouteInput<typeof deleteBankAccountRoute>,
) {
  await db.transaction(async (tx) => {
    const account = await findOwnedAccount(tx, actor, id, { lock: true });
    // users.default_bank_account_id has no foreign key (the tables refer to each other).
    await tx
      .update(users)
      .set({ defaultBankAccountId: null })
      .where(eq(users.defaultBankAccountId, account.id));
    await tx.delete(bankAccounts).where(eq(bankAccounts.id, account.id));
  });
}
