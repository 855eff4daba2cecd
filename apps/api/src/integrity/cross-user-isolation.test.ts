import { allRoutes } from "@allot/contract/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { createBank } from "@allot/domain/banks/create-bank";
import { verifyLedger } from "@allot/domain/ledger/verify-ledger";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../testing/test-app";
import { accountFingerprint, injectSender } from "./ledger-client";

/*
 * Another user's budget, transaction, allocation, transfer or category: 404 on every verb the
 * contract declares for it (with a body that would be valid for the owner, so the 404 is not a
 * 400 in disguise), and nothing changes. Creating into another user's account: 400 on bank_account
 * alone. A transfer or split in the intruder's own account naming the owner's budgets: 400 on the
 * field naming them. Lists filtered on the owner's account: empty.
 */

const OWNED_AREAS: Record<string, string> = {
  budgets: "budget",
  transactions: "transaction",
  allocations: "allocation",
  "internal-transactions": "transfer",
  "transaction-categories": "category",
};

describe.each(testEngines())("another user's objects (%s)", (engine) => {
  const t = useTestApp(engine);

  it("answer 404 on every verb and change nothing; creating into the account is 400", async () => {
    const owner = await t.user();
    const intruder = await t.user();
    const asOwner = injectSender(t.app, owner.bearer);
    const asIntruder = injectSender(t.app, intruder.bearer);
    const bank = await createBank(t.db, { name: "Isolation Bank", currency: "EUR" });

    // The owner's account, with one of everything.
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
    const category = await asOwner("POST", "/transaction-categories/", { group: "Mine", name: "Secret" });
    expect(category.status, JSON.stringify(category.body)).toBe(201);
    const transaction = await asOwner("POST", "/transactions/", {
      bank_account: account.id,
      amount: "-20.00",
      transaction_date: "2026-03-01T10:00:00Z",
      transaction_type: "ach",
      raw_description: "Shop",
    });
    expect(transaction.status, JSON.stringify(transaction.body)).toBe(201);
    const split = await asOwner("POST", `/transactions/${transaction.body.id}/splits/`, {
      splits: { [budget.body.id]: "5.00" },
    });
    expect(split.status, JSON.stringify(split.body)).toBe(200);
    const transfer = await asOwner("POST", "/internal-transactions/", {
      bank_account: account.id,
      amount: "10.00",
      src_budget: account.unallocated_budget,
      dst_budget: budget.body.id,
    });
    expect(transfer.status, JSON.stringify(transfer.body)).toBe(201);

    const ids: Record<string, string> = {
      budget: budget.body.id,
      transaction: transaction.body.id,
      allocation: split.body[0].id,
      transfer: transfer.body.id,
      category: category.body.id,
    };
    const views: Record<string, Record<string, unknown>> = {
      budget: budget.body,
      transaction: transaction.body,
      category: category.body,
    };
    const before = await accountFingerprint(t.db, account.id);

    const checked: string[] = [];
    for (const route of allRoutes) {
      const area = route.path.match(/^\/v1\/([^/]+)\/\{id\}\//)?.[1];
      const kind = area ? OWNED_AREAS[area] : undefined;
      if (!kind) continue;
      const path = route.path.replace(/^\/v1/, "").replace("{id}", ids[kind] as string);
      let payload: unknown;
      if (route.method === "PUT" || route.method === "PATCH") payload = views[kind];
      else if (path.endsWith("/resolve-pending/")) payload = { posted_date: "2026-03-02T10:00:00Z" };
      else if (path.endsWith("/splits/")) payload = { splits: {} };
      else if (route.method === "POST") payload = {};
      const reply = await asIntruder(route.method, path, payload);
      expect(reply.status, `${route.method} ${route.path}: ${JSON.stringify(reply.body)}`).toBe(404);
      checked.push(`${route.method} ${route.path}`);
    }
    // Every area was reached, on every verb it declares (the contract lists them).
    expect(checked.length).toBeGreaterThanOrEqual(17);

    // Creating into the owner's account, naming the owner's budgets.
    for (const [path, payload] of [
      [
        "/budgets/",
        {
          bank_account: account.id,
          name: "X",
          budget_type: "G",
          funding_type: "F",
          target_balance: "1.00",
          funding_amount: "1.00",
        },
      ],
      [
        "/transactions/",
        {
          bank_account: account.id,
          amount: "1.00",
          transaction_date: "2026-03-01",
          transaction_type: "ach",
          raw_description: "X",
        },
      ],
      [
        "/internal-transactions/",
        {
          bank_account: account.id,
          amount: "1.00",
          src_budget: account.unallocated_budget,
          dst_budget: ids.budget,
        },
      ],
    ] as const) {
      const reply = await asIntruder("POST", path, payload);
      expect(reply.status, `${path}: ${JSON.stringify(reply.body)}`).toBe(400);
      // Only bank_account: the check stops at the account, so nothing is said about the owner's budgets.
      expect(Object.keys(reply.body), path).toEqual(["bank_account"]);
    }

    // Lists filtered on the owner's account: the same as a filter on an account that does not
    // exist — an empty page, not an error that would tell the account exists.
    for (const path of ["/budgets/", "/transactions/", "/allocations/", "/internal-transactions/"]) {
      const reply = await asIntruder("GET", `${path}?bank_account=${account.id}`);
      expect(reply.status, `${path}: ${JSON.stringify(reply.body)}`).toBe(200);
      expect({ count: reply.body.count, results: reply.body.results }, path).toEqual({
        count: 0,
        results: [],
      });
    }

    // From the intruder's own account, naming the owner's budgets: they are not budgets of that
    // account, so each is refused on its own field and neither account changes.
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
      ["src_budget", ids.budget, own.body.unallocated_budget],
      ["dst_budget", own.body.unallocated_budget, ids.budget],
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
      { [ids.budget as string]: "3.00" },
      { [account.unallocated_budget]: "3.00" },
      { [own.body.unallocated_budget]: "1.00", [ids.budget as string]: "3.00" },
    ]) {
      const reply = await asIntruder("POST", `/transactions/${ownTransaction.body.id}/splits/`, { splits });
      expect(reply.status, `split ${JSON.stringify(splits)}: ${JSON.stringify(reply.body)}`).toBe(400);
      expect(Object.keys(reply.body), `split ${JSON.stringify(splits)}`).toEqual(["splits"]);
    }
    expect(await accountFingerprint(t.db, own.body.id)).toBe(ownBefore);
    expect(await verifyLedger(t.db, own.body.id)).toEqual([]);
    const categories = await asIntruder("GET", "/transaction-categories/?scope=shared");
    expect(categories.body.results.map((c: { id: string }) => c.id)).not.toContain(ids.category);

    expect(await accountFingerprint(t.db, account.id)).toBe(before);
    expect(await verifyLedger(t.db, account.id)).toEqual([]);
  });
});
