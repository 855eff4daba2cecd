import type { Database } from "@allot/db/create-database";
import { users } from "@allot/db/schema/users";
import { eq } from "drizzle-orm";
import { createBankAccount } from "../../src/bank-accounts/create-bank-account";
import { createBank } from "../../src/banks/create-bank";
import type { Actor } from "../../src/shared/actor";
import { internalContext } from "../../src/shared/use-case-context";
import { createUser } from "../../src/users/create-user";
import { asUser, sessionActor } from "./use-case-context";

/*
 * Fixtures one level below the API, for code that has a database and no API to call: the
 * scheduler's and cron's tests, the process-kill seeds (written before the API process starts, the
 * embedded engine admitting one process) and the bench's users. They go through the use cases the
 * API's routes call, so rows come out as the API makes them. Tests that have the API build with
 * `apps/api/test/testing/fixtures.ts` instead, which has the same names and goes over HTTP.
 */

export const FIXTURE_PASSWORD = "a long passphrase";

/** A bank (USD unless told), made the admin way. */
export function aBank(db: Database, fields: { name?: string; currency?: string } = {}) {
  return createBank(internalContext(db, "cli"), {
    name: fields.name ?? `Bank ${crypto.randomUUID()}`,
    currency: fields.currency ?? "USD",
  });
}

export interface Owner {
  actor: Actor;
  email: string;
  password: string;
}

/**
 * A user made the admin way, acting through a password session; in `timezone` (written as is: the
 * API would refuse an unknown zone) when given.
 */
export async function anOwner(
  db: Database,
  fields: { email?: string; password?: string; timezone?: string } = {},
): Promise<Owner> {
  const email = fields.email ?? `owner-${crypto.randomUUID()}@example.com`;
  const password = fields.password ?? FIXTURE_PASSWORD;
  const user = await createUser(internalContext(db, "cli"), { email, password });
  if (fields.timezone) await db.update(users).set({ timezone: fields.timezone }).where(eq(users.id, user.id));
  const actor = sessionActor(user);
  return { actor, email, password };
}

/**
 * An account of `owner` holding `balance` (posted and available alike; none unless told) in its
 * Unallocated budget, at `bank` or at a new USD bank; auto funding off unless told, as the create
 * endpoint leaves it.
 */
export async function anAccount(
  db: Database,
  owner: Actor,
  fields: { name?: string; bank?: string; balance?: string; autoFunding?: boolean } = {},
) {
  const balance = fields.balance ?? "0.00";
  return createBankAccount(asUser(db, owner), {
    name: fields.name ?? "Checking",
    bank: fields.bank ?? (await aBank(db)).id,
    auto_funding_enabled: fields.autoFunding ?? false,
    available_balance: balance,
    posted_balance: balance,
  });
}
