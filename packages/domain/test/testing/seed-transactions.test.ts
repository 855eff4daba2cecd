import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { openTestDatabase, testEngines } from "@allot/db/testing/test-databases";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { verifyLedger } from "../../src/ledger/verify-ledger";
import { anAccount, anOwner } from "./fixtures";
import { seedTransactions } from "./seed-transactions";

describe.each(testEngines())("seedTransactions (%s)", (engine) => {
  it("leaves the ledger as the API would: balances, count and every snapshot, on a fresh account and a seeded one", async () => {
    const database = await openTestDatabase(engine);
    const { db } = database;
    try {
      const owner = await anOwner(db);
      const account = await anAccount(db, owner.actor, { balance: "250.00" });

      await seedTransactions(db, account.id, 300, { pending: 7 });
      expect(await verifyLedger(db, account.id)).toEqual([]);
      // Seeded again: older and newer rows than the first seed's, put right by the ledger's refresh.
      await seedTransactions(db, account.id, 500, { pending: 3 });
      expect(await verifyLedger(db, account.id)).toEqual([]);

      const [row] = await db.select().from(bankAccounts).where(eq(bankAccounts.id, account.id));
      expect(row?.transactionCount).toBe(800);
    } finally {
      await database.close();
    }
  });
});
