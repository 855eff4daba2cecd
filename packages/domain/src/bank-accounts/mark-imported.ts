import type { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { eq } from "drizzle-orm";
import { writeAccount } from "../account-access/write-account";
import type { UseCaseContext } from "../shared/use-case-context";
import { loadBankAccountView } from "./bank-account-view";

/**
 * Records a completed import: last_imported_at is now, and last_posted_through advances to the
 * given date but never moves backwards (a late, older import must not hold funding back).
 */
export async function markImported(
  ctx: UseCaseContext,
  { id, last_posted_through: lastPostedThrough }: RouteInput<typeof bankAccountRoutes.markImported>,
) {
  const { actor, now } = ctx;
  return writeAccount(ctx, { accountId: id, owner: actor }, async (tx, account) => {
    // YYYY-MM-DD strings order like the dates they name.
    const through =
      account.lastPostedThrough && account.lastPostedThrough > lastPostedThrough
        ? account.lastPostedThrough
        : lastPostedThrough;
    const [updated] = await tx
      .update(bankAccounts)
      .set({ lastImportedAt: now, lastPostedThrough: through })
      .where(eq(bankAccounts.id, account.id))
      .returning();
    if (!updated) throw new Error("bank account update returned nothing");
    return {
      event: {
        accountId: account.id,
        type: "bank_account.imported",
        says: `marked the bank account ${account.name} imported, posted through ${through}`,
        data: {
          bank_account: account.id,
          last_imported_at: now.toISOString(),
          last_posted_through: through,
        },
      },
      result: await loadBankAccountView(tx, updated),
    };
  });
}
