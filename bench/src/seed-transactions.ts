import { createDatabase } from "@allot/db/create-database";
import { seedTransactions as seedAccountTransactions } from "@allot/domain/testing/seed-transactions";
import { sql } from "drizzle-orm";

/**
 * The shared seeding (`@allot/domain/testing/seed-transactions`) on a connection of its own: `count`
 * transactions, the newest 20 pending, then fresh statistics. Returns how long it took, in ms.
 */
export async function seedTransactions(databaseUrl: string, accountId: string, count: number) {
  const started = performance.now();
  const handle = await createDatabase({ url: databaseUrl, maxConnections: 1 });
  try {
    await seedAccountTransactions(handle.db, accountId, count, { pending: 20 });
    // Fresh statistics and visibility map, as autovacuum would leave a long-lived table.
    await handle.db.execute(sql`vacuum analyze transactions`);
    await handle.db.execute(sql`vacuum analyze transaction_allocations`);
  } finally {
    await handle.close();
  }
  return performance.now() - started;
}
