import Fastify from "fastify";
import postgres from "postgres";
import { readBareServerEnv } from "./env";

/*
 * The floor: the page the real `GET /api/v1/bank-accounts/` serves (first page, default size 100,
 * ordered by name) from the same four statements the real use case sends — count, page, owners,
 * Unallocated budgets; text as drizzle renders it (packages/domain/src/bank-accounts/
 * list-bank-accounts.ts and bank-account-view.ts) — with nothing around them: no auth, no
 * throttle, no tRPC, no ORM. The user id is fixed by the runner. Started as a child process by
 * run-bench.ts, like the API.
 */

const PAGE_SIZE = 100;
const DATE_OID = 1082;

interface AccountRow {
  id: string;
  name: string;
  bank_id: string;
  account_type: string;
  account_number: string | null;
  currency: string;
  posted_balance: string;
  available_balance: string;
  auto_funding_enabled: boolean;
  last_imported_at: Date | null;
  last_posted_through: string | null;
  created_at: Date;
  modified_at: Date;
}

const env = readBareServerEnv();
const sql = postgres(env.databaseUrl, {
  // Same pool size as the API's createDatabase default.
  max: 10,
  onnotice: () => {},
  // `date` columns stay "YYYY-MM-DD" strings, as drizzle reads them.
  types: { date: { to: DATE_OID, from: [DATE_OID], serialize: (x: string) => x, parse: (x: string) => x } },
});
const app = Fastify({ logger: false });

app.get("/healthz", async () => {
  await sql`select 1`;
  return { status: "ok" };
});

app.get("/bank-accounts/", async () => {
  const userId = env.userId;
  const [counted] = await sql<{ count: string }[]>`
    select count(*) from "bank_accounts" where "bank_accounts"."id" in
      (select "bank_account_id" from "bank_account_owners" where "bank_account_owners"."user_id" = ${userId})`;
  const count = Number(counted?.count ?? 0);
  const rows =
    count === 0
      ? []
      : await sql<AccountRow[]>`
    select "id", "name", "bank_id", "account_type", "account_number", "currency", "posted_balance",
      "available_balance", "auto_funding_enabled", "last_imported_at", "last_posted_through",
      "created_at", "modified_at"
    from "bank_accounts" where "bank_accounts"."id" in
      (select "bank_account_id" from "bank_account_owners" where "bank_account_owners"."user_id" = ${userId})
    order by "bank_accounts"."name" asc, "bank_accounts"."id" asc limit ${PAGE_SIZE}`;
  const results = rows.length === 0 ? [] : await toWire(rows);
  // The seed stays within one page, so there is no next or previous link to build.
  return { count, next: null, previous: null, results };
});

async function toWire(rows: AccountRow[]) {
  const ids = rows.map((row) => row.id);
  const ownerRows = await sql<{ bank_account_id: string; username: string }[]>`
    select "bank_account_owners"."bank_account_id", "users"."username" from "bank_account_owners"
    inner join "users" on "users"."id" = "bank_account_owners"."user_id"
    where "bank_account_owners"."bank_account_id" in ${sql(ids)}
    order by "bank_account_owners"."created_at" asc, "users"."username" asc`;
  const unallocatedRows = await sql<{ bank_account_id: string; id: string }[]>`
    select "bank_account_id", "id" from "budgets"
    where ("budgets"."bank_account_id" in ${sql(ids)} and "budgets"."is_unallocated" = ${true})`;

  const owners = new Map<string, string[]>();
  for (const { bank_account_id, username } of ownerRows) {
    owners.set(bank_account_id, [...(owners.get(bank_account_id) ?? []), username]);
  }
  const unallocated = new Map(unallocatedRows.map((row) => [row.bank_account_id, row.id]));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    bank: row.bank_id,
    owners: owners.get(row.id) ?? [],
    account_type: row.account_type,
    account_number: row.account_number,
    currency: row.currency,
    // numeric(14,2) already reads back with two decimals.
    posted_balance: row.posted_balance,
    posted_balance_currency: row.currency,
    available_balance: row.available_balance,
    available_balance_currency: row.currency,
    unallocated_budget: unallocated.get(row.id) ?? null,
    auto_funding_enabled: row.auto_funding_enabled,
    last_imported_at: row.last_imported_at?.toISOString() ?? null,
    last_posted_through: row.last_posted_through,
    created_at: row.created_at.toISOString(),
    modified_at: row.modified_at.toISOString(),
  }));
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, async () => {
    await app.close();
    await sql.end({ timeout: 5 });
    process.exit(0);
  });
}

await app.listen({ port: env.port, host: "127.0.0.1" });
