import Fastify from "fastify";
import postgres from "postgres";
import { readBareServerEnv } from "./env";

/*
 * The floors. First, the page the real `GET /api/v1/bank-accounts/` serves (first page, default size 100,
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

interface TransactionRow {
  id: string;
  bank_account_id: string;
  amount: string;
  posted_date: Date;
  transaction_date: Date;
  transaction_type: string;
  pending: boolean;
  memo: string | null;
  raw_description: string;
  description: string;
  description_user_edited: boolean;
  category_id: string | null;
  party: string | null;
  merchant_name: string | null;
  merchant_intermediary: string | null;
  merchant_address: string | null;
  merchant_city: string | null;
  merchant_region: string | null;
  merchant_country: string | null;
  merchant_latitude: string | null;
  merchant_longitude: string | null;
  merchant_category: string | null;
  merchant_category_code: string | null;
  virtual_card_number: string | null;
  bank_transaction_id: string | null;
  linked_transaction_id: string | null;
  posted_balance_snapshot: string;
  available_balance_snapshot: string;
  has_image: boolean;
  image_width: number | null;
  image_height: number | null;
  has_document: boolean;
  created_at: Date;
  modified_at: Date;
  has_details: boolean;
  category_group: string | null;
  category_name: string | null;
  currency: string;
}

interface AllocationRow {
  id: string;
  transaction_id: string;
  budget_id: string | null;
  amount: string;
  category_id: string | null;
  memo: string | null;
  budget_balance: string;
  created_at: Date;
  modified_at: Date;
  category_group: string | null;
  category_name: string | null;
  currency: string;
}

const fullName = (group: string | null, name: string | null) =>
  group !== null && name !== null ? `${group} : ${name}` : null;

/*
 * The first page of `GET /api/v1/transactions/?bank_account=…&page_size=…` from the three statements
 * the real use case sends (packages/domain/src/transactions/list-transactions.ts, transaction-view.ts,
 * allocations/allocation-view.ts): count (the account's ledger-kept transaction_count), page (newest
 * first), the page's allocations.
 */
app.get<{ Querystring: { bank_account: string; page_size?: string } }>("/transactions/", async (request) => {
  const userId = env.userId;
  const accountId = request.query.bank_account;
  const pageSize = Math.min(Number(request.query.page_size ?? PAGE_SIZE), 500);
  const [counted] = await sql<{ count: string }[]>`
    select coalesce(sum("bank_accounts"."transaction_count"), 0) as count from "bank_accounts"
    where ("bank_accounts"."id" in
      (select "bank_account_id" from "bank_account_owners" where "bank_account_owners"."user_id" = ${userId})
      and "bank_accounts"."id" = ${accountId})`;
  const count = Number(counted?.count ?? 0);
  const rows =
    count === 0
      ? []
      : await sql<TransactionRow[]>`
    select "transactions"."id", "transactions"."bank_account_id", "transactions"."amount",
      "transactions"."posted_date", "transactions"."transaction_date", "transactions"."transaction_type",
      "transactions"."pending", "transactions"."memo", "transactions"."raw_description",
      "transactions"."description", "transactions"."description_user_edited", "transactions"."category_id",
      "transactions"."party", "transactions"."merchant_name", "transactions"."merchant_intermediary",
      "transactions"."merchant_address", "transactions"."merchant_city", "transactions"."merchant_region",
      "transactions"."merchant_country", "transactions"."merchant_latitude", "transactions"."merchant_longitude",
      "transactions"."merchant_category", "transactions"."merchant_category_code",
      "transactions"."virtual_card_number", "transactions"."bank_transaction_id",
      "transactions"."linked_transaction_id", "transactions"."posted_balance_snapshot",
      "transactions"."available_balance_snapshot", ("transactions"."image_key" is not null) as "has_image",
      "transactions"."image_width", "transactions"."image_height",
      ("transactions"."document_key" is not null) as "has_document",
      "transactions"."created_at", "transactions"."modified_at",
      ("transactions"."details" is not null) as "has_details",
      "transaction_categories"."group" as "category_group", "transaction_categories"."name" as "category_name",
      "bank_accounts"."currency"
    from "transactions"
    inner join "bank_accounts" on "bank_accounts"."id" = "transactions"."bank_account_id"
    left join "transaction_categories" on "transaction_categories"."id" = "transactions"."category_id"
    where ("transactions"."bank_account_id" in
      (select "bank_account_id" from "bank_account_owners" where "bank_account_owners"."user_id" = ${userId})
      and "transactions"."bank_account_id" = ${accountId})
    order by "transactions"."transaction_date" desc, "transactions"."created_at" desc, "transactions"."id" desc
    limit ${pageSize}`;
  const allocations = rows.length === 0 ? new Map() : await allocationsOf(rows.map((row) => row.id));
  const url = new URL(request.url, `http://${request.host}`);
  url.searchParams.set("page", "2");
  url.searchParams.set("page_size", String(pageSize));
  return {
    count,
    next: count > pageSize ? url.toString() : null,
    previous: null,
    results: rows.map((row) => ({
      id: row.id,
      bank_account: row.bank_account_id,
      amount: row.amount,
      amount_currency: row.currency,
      party: row.party,
      posted_date: row.posted_date.toISOString(),
      transaction_date: row.transaction_date.toISOString(),
      transaction_type: row.transaction_type,
      pending: row.pending,
      memo: row.memo,
      raw_description: row.raw_description,
      description: row.description,
      description_user_edited: row.description_user_edited,
      category: row.category_id,
      category_full_name: fullName(row.category_group, row.category_name),
      merchant_name: row.merchant_name,
      merchant_intermediary: row.merchant_intermediary,
      merchant_address: row.merchant_address,
      merchant_city: row.merchant_city,
      merchant_region: row.merchant_region,
      merchant_country: row.merchant_country,
      merchant_latitude: row.merchant_latitude,
      merchant_longitude: row.merchant_longitude,
      merchant_category: row.merchant_category,
      merchant_category_code: row.merchant_category_code,
      virtual_card_number: row.virtual_card_number,
      has_details: row.has_details,
      allocations: allocations.get(row.id) ?? [],
      bank_transaction_id: row.bank_transaction_id,
      linked_transaction: row.linked_transaction_id,
      bank_account_posted_balance: row.posted_balance_snapshot,
      bank_account_posted_balance_currency: row.currency,
      bank_account_available_balance: row.available_balance_snapshot,
      bank_account_available_balance_currency: row.currency,
      // The API answers its PUBLIC_BASE_URL; the bare server's own address is as good a stand-in.
      image: row.has_image ? `http://127.0.0.1/api/v1/transactions/${row.id}/image/` : null,
      image_width: row.image_width,
      image_height: row.image_height,
      document: row.has_document ? `http://127.0.0.1/api/v1/transactions/${row.id}/document/` : null,
      created_at: row.created_at.toISOString(),
      modified_at: row.modified_at.toISOString(),
    })),
  };
});

async function allocationsOf(transactionIds: string[]) {
  const rows = await sql<AllocationRow[]>`
    select "transaction_allocations"."id", "transaction_allocations"."transaction_id",
      "transaction_allocations"."bank_account_id", "transaction_allocations"."budget_id",
      "transaction_allocations"."amount", "transaction_allocations"."category_id", "transaction_allocations"."memo",
      "transaction_allocations"."budget_balance", "transaction_allocations"."created_at",
      "transaction_allocations"."modified_at", "transaction_categories"."group" as "category_group",
      "transaction_categories"."name" as "category_name", "bank_accounts"."currency"
    from "transaction_allocations"
    inner join "bank_accounts" on "bank_accounts"."id" = "transaction_allocations"."bank_account_id"
    left join "transaction_categories" on "transaction_categories"."id" = "transaction_allocations"."category_id"
    where "transaction_allocations"."transaction_id" = any(${transactionIds}::uuid[])
    order by "transaction_allocations"."created_at" asc, "transaction_allocations"."id" asc`;
  const grouped = new Map<string, unknown[]>();
  for (const row of rows) {
    const list = grouped.get(row.transaction_id) ?? [];
    list.push({
      id: row.id,
      transaction: row.transaction_id,
      budget: row.budget_id,
      amount: row.amount,
      amount_currency: row.currency,
      budget_balance: row.budget_balance,
      budget_balance_currency: row.currency,
      category: row.category_id,
      category_full_name: fullName(row.category_group, row.category_name),
      memo: row.memo,
      created_at: row.created_at.toISOString(),
      modified_at: row.modified_at.toISOString(),
    });
    grouped.set(row.transaction_id, list);
  }
  return grouped;
}

async function toWire(rows: AccountRow[]) {
  const ids = rows.map((row) => row.id);
  const ownerRows = await sql<{ bank_account_id: string; username: string; timezone: string }[]>`
    select "bank_account_owners"."bank_account_id", "users"."username", "users"."timezone"
    from "bank_account_owners"
    inner join "users" on "users"."id" = "bank_account_owners"."user_id"
    where "bank_account_owners"."bank_account_id" in ${sql(ids)}
    order by "bank_account_owners"."created_at" asc, "users"."username" asc`;
  const unallocatedRows = await sql<{ bank_account_id: string; id: string }[]>`
    select "bank_account_id", "id" from "budgets"
    where ("budgets"."bank_account_id" in ${sql(ids)} and "budgets"."is_unallocated" = ${true})`;

  const owners = new Map<string, string[]>();
  const timeZones = new Map<string, string>();
  for (const { bank_account_id, username, timezone } of ownerRows) {
    owners.set(bank_account_id, [...(owners.get(bank_account_id) ?? []), username]);
    if (!timeZones.has(bank_account_id)) timeZones.set(bank_account_id, timezone);
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
    timezone: timeZones.get(row.id) ?? "UTC",
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
