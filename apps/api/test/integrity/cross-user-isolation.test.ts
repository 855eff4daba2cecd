import { testEngines } from "@allot/db/testing/test-databases";
import { createBank } from "@allot/domain/banks/create-bank";
import { verifyLedger } from "@allot/domain/ledger/verify-ledger";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../testing/test-app";
import { accountFingerprint, injectSender } from "./ledger-client";

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
    const asOwner = injectSender(t.app, owner.bearer);
    const asIntruder = injectSender(t.app, intruder.bearer);
    const bank = await createBank(internalContext(t.db, "cli"), { name: "Isolation Bank", currency: "EUR" });

    const account = (
      await asOwner("POST", "/bank-accounts/", { name: "Mine", bank: bank.id, available_balance: "100.00" })
    ).body;
    const budget = await asOwner("POST", "/budgets/", {
      bank_account: account.id,
      name: "Holiday",
      budget_type: "G",
      funding_type: "F",
      target_balance: "500.00",
      funding_amount: "10.00",
    });
    expect(budget.status, JSON.stringify(budget.body)).toBe(201);
    const before = await accountFingerprint(t.db, account.id);

    const own = await asIntruder("POST", "/bank-accounts/", {
      name: "Theirs",
      bank: bank.id,
      available_balance: "50.00",
    });
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    const ownTransaction = await asIntruder("POST", "/transactions/", {
      bank_account: own.body.id,
      amount: "-8.00",
      transaction_date: "2026-03-01T11:00:00Z",
      transaction_type: "ach",
      raw_description: "Own shop",
    });
    expect(ownTransaction.status, JSON.stringify(ownTransaction.body)).toBe(201);
    const ownBefore = await accountFingerprint(t.db, own.body.id);
    for (const [field, src, dst] of [
      ["src_budget", budget.body.id, own.body.unallocated_budget],
      ["dst_budget", own.body.unallocated_budget, budget.body.id],
      ["src_budget", account.unallocated_budget, own.body.unallocated_budget],
      ["dst_budget", own.body.unallocated_budget, account.unallocated_budget],
    ] as const) {
      const reply = await asIntruder("POST", "/internal-transactions/", {
        bank_account: own.body.id,
        amount: "1.00",
        src_budget: src,
        dst_budget: dst,
      });
      expect(reply.status, `transfer ${field}: ${JSON.stringify(reply.body)}`).toBe(400);
      expect(Object.keys(reply.body), `transfer ${field}`).toEqual([field]);
    }
    for (const splits of [
      { [budget.body.id]: "3.00" },
      { [account.unallocated_budget]: "3.00" },
      { [own.body.unallocated_budget]: "1.00", [budget.body.id]: "3.00" },
    ]) {
      const reply = await asIntruder("POST", `/transactions/${ownTransaction.body.id}/splits/`, { splits });
      expect(reply.status, `split ${JSON.stringify(splits)}: ${JSON.stringify(reply.body)}`).toBe(400);
      expect(Object.keys(reply.body), `split ${JSON.stringify(splits)}`).toEqual(["splits"]);
    }
    expect(await accountFingerprint(t.db, own.body.id)).toBe(ownBefore);
    expect(await verifyLedger(t.db, own.body.id)).toEqual([]);
    expect(await accountFingerprint(t.db, account.id)).toBe(before);
    expect(await verifyLedger(t.db, account.id)).toEqual([]);
  });
});
