import type { RouteInput } from "@allot/contract/http/route";
import type { userRoutes } from "@allot/contract/users/routes";
import type { Database } from "@allot/db/create-database";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { users } from "@allot/db/schema/users";
import { eq, type SQL } from "drizzle-orm";
import { findOwnedAccountFor, unknownAccount } from "../account-access/find-owned-account";
import { stampAccountsOf } from "../ledger/change-number";
import { NotFound, ValidationFailed } from "../shared/errors";
import type { PublicContext, UseCaseContext } from "../shared/use-case-context";
import { normalizeTimeZone, notATimeZone } from "./time-zone";
import { toUserView } from "./user-view";

/** The writable User fields; absent ones are left as they are. */
interface UserChanges {
  name?: string;
  /** An account the user (not the caller) owns; null clears it. */
  default_bank_account?: string | null;
  timezone?: string;
}

function validTimeZone(input: string) {
  const timezone = normalizeTimeZone(input);
  if (!timezone) throw ValidationFailed.on("timezone", notATimeZone(input));
  return timezone;
}

/**
 * Updates the user `where` selects: the caller for `/users/me/`, anyone for staff. A new default
 * account is locked before the user row, the order deleting an account takes (it clears defaults),
 * so the two cannot deadlock and a default never points at an account deleted meanwhile.
 */
async function updateUserWhere(db: Database, where: SQL, changes: UserChanges, baseUrl: string) {
  return db.transaction(async (tx) => {
    const [target] = await tx.select({ userId: users.id }).from(users).where(where).limit(1);
    if (!target) throw new NotFound("No user matches the given query.");

    const set: Partial<typeof users.$inferInsert> = {};
    if (changes.name !== undefined) set.name = changes.name;
    if (changes.timezone !== undefined) set.timezone = validTimeZone(changes.timezone);
    const accountId = changes.default_bank_account;
    if (accountId === null) set.defaultBankAccountId = null;
    else if (accountId !== undefined) {
      const account = await findOwnedAccountFor(tx, target, "default_bank_account", accountId);
      // Locked, not written (no change number): the account is only kept from going meanwhile.
      const [kept] = await tx
        .select({ id: bankAccounts.id })
        .from(bankAccounts)
        .where(eq(bankAccounts.id, account.id))
        .for("update");
      if (!kept) throw unknownAccount("default_bank_account", accountId);
      set.defaultBankAccountId = kept.id;
    }

    const [user] = await tx.select().from(users).where(eq(users.id, target.userId)).for("update");
    if (!user) throw new NotFound("No user matches the given query.");
    if (Object.keys(set).length === 0) return toUserView(user, baseUrl);

    const [updated] = await tx.update(users).set(set).where(eq(users.id, user.id)).returning();
    if (!updated) throw new Error("user update returned nothing");
    // An account's answer carries its first owner's time zone.
    if (updated.timezone !== user.timezone) await stampAccountsOf(tx, user.id);
    return toUserView(updated, baseUrl);
  });
}

/** The caller's own user (`/users/me/`). */
export const updateMe = (
  { db, actor, services }: UseCaseContext<"publicBaseUrl">,
  changes: RouteInput<typeof userRoutes.updateMe>,
) => updateUserWhere(db, eq(users.id, actor.userId), changes, services.publicBaseUrl);

/** Any user, by username (staff; PUT and PATCH). */
export const updateUser = (
  { db, services }: PublicContext<"publicBaseUrl">,
  { username, ...changes }: RouteInput<typeof userRoutes.update>,
) => updateUserWhere(db, eq(users.username, username), changes, services.publicBaseUrl);
