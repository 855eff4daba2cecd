import type { Database } from "@allot/db/create-database";
import { users } from "@allot/db/schema/users";
import { createBankAccount } from "@allot/domain/bank-accounts/create-bank-account";
import { createBank } from "@allot/domain/banks/create-bank";
import type { Actor } from "@allot/domain/shared/actor";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { asUser } from "@allot/domain/testing/use-case-context";
import { createUser } from "@allot/domain/users/create-user";
import { eq } from "drizzle-orm";

/** A user with the given time zone, written as is (the API would refuse an unknown one). */
export async function createOwner(db: Database, email: string, timezone: string): Promise<Actor> {
  const user = await createUser(internalContext(db, "cli"), { email, password: "a long passphrase" });
  await db.update(users).set({ timezone }).where(eq(users.id, user.id));
  return { userId: user.id, username: user.username, isStaff: false, credential: "session", sessionId: null };
}

/** An account of `owner` at a new bank; its Unallocated budget starts with `available`. */
export async function createAccount(
  db: Database,
  owner: Actor,
  options: { name?: string; autoFunding?: boolean; available?: string } = {},
) {
  const bank = await createBank(internalContext(db, "cli"), { name: "Test Bank", currency: "USD" });
  return createBankAccount(asUser(db, owner), {
    name: options.name ?? "Checking",
    bank: bank.id,
    auto_funding_enabled: options.autoFunding ?? true,
    available_balance: options.available ?? "0.00",
    posted_balance: options.available ?? "0.00",
  });
}
