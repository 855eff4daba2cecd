import { internalTransactionRoutes } from "@allot/contract/internal-transactions/routes";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { verifyLedger } from "@allot/domain/ledger/verify-ledger";
import { describe, expect, it } from "vitest";
import { aBank, aBudget, anAccount, aTransaction } from "../testing/fixtures";
import { useTestApp } from "../testing/test-app";
import { accountFingerprint } from "./ledger-client";

/*
 * Another user's budgets named from the intruder's own account: a transfer or split naming them is
 * 400 on the field naming them, and neither account changes. (Reaching the owner's objects through
 * their own ids — 404 on every verb, 400 on bank_account when creating into the account, empty
 * filtered lists — is the authorisation matrix's: authorization-matrix.test.ts.)
 */

describe.each(testEngines())("another user's budgets named from one's own account (%s)", (engine) => {
  const t = useTestApp(engine);

  it("are refused on the field naming them and change nothing", async () => {
    const owner = await t.user();
    const intruder = await t.user();
    const asIntruder = t.as(intruder);
    const bank = await aBank(t, { name: "Isolation Bank", currency: "EUR" });

    const account = await anAccount(t, owner, { name: "Mine", bank: bank.id, balance: "100.00" });
    const budget = await aBudget(t, owner, account, { target_balance: "500.00", funding_amount: "10.00" });
    const before = await accountFingerprint(t.db, account.id);

    const own = await anAccount(t, intruder, { name: "Theirs", bank: bank.id, balance: "50.00" });
    const ownTransaction = await aTransaction(t, intruder, own, {
      amount: "-8.00",
      transaction_date: "2026-03-01T11:00:00Z",
      transaction_type: "ach",
      raw_description: "Own shop",
    });
    const ownBefore = await accountFingerprint(t.db, own.id);
    for (const [field, src, dst] of [
      ["src_budget", budget.id, own.unallocated_budget],
      ["dst_budget", own.unallocated_budget, budget.id],
      ["src_budget", account.unallocated_budget, own.unallocated_budget],
      ["dst_budget", own.unallocated_budget, account.unallocated_budget],
    ] as const) {
      const reply = await asIntruder.call(internalTransactionRoutes.create, {
        bank_account: own.id,
        amount: "1.00",
        src_budget: src,
        dst_budget: dst,
      });
      expect(reply.statusCode, `transfer ${field}: ${reply.body}`).toBe(400);
      expect(Object.keys(reply.json<object>()), `transfer ${field}`).toEqual([field]);
    }
    for (const splits of [
      { [budget.id]: "3.00" },
      { [account.unallocated_budget]: "3.00" },
      { [own.unallocated_budget]: "1.00", [budget.id]: "3.00" },
    ]) {
      const reply = await asIntruder.call(transactionRoutes.split, { id: ownTransaction.id, splits });
      expect(reply.statusCode, `split ${JSON.stringify(splits)}: ${reply.body}`).toBe(400);
      expect(Object.keys(reply.json<object>()), `split ${JSON.stringify(splits)}`).toEqual(["splits"]);
    }
    expect(await accountFingerprint(t.db, own.id)).toBe(ownBefore);
    expect(await verifyLedger(t.db, own.id)).toEqual([]);
    expect(await accountFingerprint(t.db, account.id)).toBe(before);
    expect(await verifyLedger(t.db, account.id)).toEqual([]);
  });
});
