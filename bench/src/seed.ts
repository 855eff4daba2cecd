import { randomUUID } from "node:crypto";
import { createDatabase } from "@allot/db/create-database";
import { aBank, anOwner } from "@allot/domain/testing/fixtures";

/** The caller whose accounts are listed: one page (default page size 100) of accounts. */
const OWNER_ACCOUNTS = 20;
/** Other users' accounts share the tables, so the owner filter has rows to skip. */
const OTHER_USERS = 3;
const ACCOUNTS_PER_OTHER_USER = 20;
const PASSWORD = "bench-password-not-secret";

interface SeedUser {
  id: number;
  email: string;
}

export interface SeededUsers {
  bankId: string;
  owner: SeedUser;
  others: SeedUser[];
  /** Owns the funding scenario's accounts, so the owner's account list stays as measured. */
  funder: SeedUser;
}

export interface SeededAccounts {
  /** The owner's Bearer token, for the measured requests. */
  ownerToken: string;
  ownerAccounts: number;
  /** The owner's account ids, in creation order. */
  ownerAccountIds: string[];
}

/** Reference data and users, made the way an admin makes them (the domain's fixtures, no HTTP). */
export async function seedUsers(databaseUrl: string): Promise<SeededUsers> {
  const handle = await createDatabase({ url: databaseUrl, maxConnections: 2 });
  try {
    const bank = await aBank(handle.db, { name: "Bench Bank" });
    const makeUser = async (email: string) => ({
      id: (await anOwner(handle.db, { email, password: PASSWORD })).actor.userId,
      email,
    });
    const owner = await makeUser("owner@bench.example");
    const others: SeedUser[] = [];
    for (let i = 1; i <= OTHER_USERS; i++) others.push(await makeUser(`other-${i}@bench.example`));
    const funder = await makeUser("funder@bench.example");
    return { bankId: bank.id, owner, others, funder };
  } finally {
    await handle.close();
  }
}

/** Bank accounts made through the API, as a client would, so each gets its owner and Unallocated budget. */
export async function seedAccounts(apiUrl: string, users: SeededUsers): Promise<SeededAccounts> {
  for (const other of users.others) {
    const token = await login(apiUrl, other.email);
    await createAccounts(apiUrl, token, users.bankId, ACCOUNTS_PER_OTHER_USER, other.email);
  }
  const ownerToken = await login(apiUrl, users.owner.email);
  const ownerAccountIds = await createAccounts(apiUrl, ownerToken, users.bankId, OWNER_ACCOUNTS, "Owner");
  return { ownerToken, ownerAccounts: OWNER_ACCOUNTS, ownerAccountIds };
}

export async function login(apiUrl: string, email: string): Promise<string> {
  const body = await postJson(apiUrl, "/api/token/", null, { email, password: PASSWORD }, 200);
  return (body as { access: string }).access;
}

async function createAccounts(apiUrl: string, token: string, bankId: string, count: number, label: string) {
  const ids: string[] = [];
  for (let i = 1; i <= count; i++) {
    // Names not in creation order, so ordering by name is real work.
    const name = `${label} account ${String((i * 7) % count).padStart(2, "0")}-${i}`;
    const created = await postJson(apiUrl, "/api/v1/bank-accounts/", token, { name, bank: bankId }, 201);
    ids.push((created as { id: string }).id);
  }
  return ids;
}

/** An Idempotency-Key as the SDK sends one with every write: what a real client's write costs. */
export const asTheSdkSends = () => ({ "idempotency-key": randomUUID() });

export async function postJson(
  apiUrl: string,
  path: string,
  token: string | null,
  body: unknown,
  expected: number,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${apiUrl}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== expected) {
    throw new Error(`POST ${path} answered ${response.status} (expected ${expected}): ${text.slice(0, 500)}`);
  }
  return JSON.parse(text) as unknown;
}
