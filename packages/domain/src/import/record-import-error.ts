import { findOwnedAccount } from "../account-access/find-owned-account";
import { noticeRefusedImport } from "../events/account-notices";
import { NotFound } from "../shared/errors";
import type { UseCaseContext } from "../shared/use-case-context";

/**
 * An import the API refused (400): the owners hear of it, since importers usually run unattended.
 * Its own transaction, as the import's rolled back. An account the caller cannot see records nothing.
 * `id` is the account id as sent: the refused input may not have passed validation.
 */
export async function recordImportError(
  { db, actor }: UseCaseContext,
  { id: accountId, errors }: { id: unknown; errors: Record<string, unknown> },
) {
  if (typeof accountId !== "string") return;
  await db.transaction(async (tx) => {
    try {
      await findOwnedAccount(tx, actor, accountId.toLowerCase());
    } catch (error) {
      if (error instanceof NotFound) return;
      throw error;
    }
    await noticeRefusedImport(tx, accountId.toLowerCase(), errors);
  });
}
