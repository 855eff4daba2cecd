import type { Database } from "@allot/db/create-database";
import { findOwnedAccount } from "../bank-accounts/find-owned-account";
import { notifyAccountOwners } from "../notifications/record-notification";
import type { Actor } from "../shared/actor";
import { NotFound } from "../shared/errors";

// A payload with thousands of bad rows makes a notification of the first few.
const LISTED_ERRORS = 10;

/**
 * An import the API refused (400): the owners hear of it, since importers usually run unattended.
 * Its own transaction, as the import's rolled back. An account the caller cannot see records nothing.
 */
export async function recordImportError(
  db: Database,
  actor: Actor,
  accountId: unknown,
  errors: Record<string, unknown>,
) {
  if (typeof accountId !== "string") return;
  await db.transaction(async (tx) => {
    try {
      await findOwnedAccount(tx, actor, accountId.toLowerCase());
    } catch (error) {
      if (error instanceof NotFound) return;
      throw error;
    }
    const entries = Object.entries(errors);
    await notifyAccountOwners(tx, accountId.toLowerCase(), "import_error", {
      error_count: entries.length,
      errors: Object.fromEntries(entries.slice(0, LISTED_ERRORS)),
    });
  });
}
