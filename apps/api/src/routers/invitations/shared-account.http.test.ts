import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { budgetRoutes } from "@allot/contract/budgets/routes";
import type { RouteSpec } from "@allot/contract/http/route";
import { internalTransactionRoutes } from "@allot/contract/internal-transactions/routes";
import { transactionCategoryRoutes } from "@allot/contract/transaction-categories/routes";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { verifyLedger } from "@allot/domain/ledger/verify-ledger";
import { describe, expect, it } from "vitest";
import { invitationKit } from "../../../test/testing/invitation-test-kit";
import { type TestUser, useTestApp } from "../../../test/testing/test-app";
import type { CallOutput, RouteResponse } from "../../../test/testing/test-client";
import { useTestMailbox } from "../../../test/testing/test-mailbox";

/** After an invitation is accepted, the co-owner works on the account as its first owner does. */
describe.each(testEngines())("a shared account after acceptance (%s)", (engine) => {
  const t = useTestApp(engine);
  const mailbox = useTestMailbox(() => t.db);
  const kit = invitationKit(t, mailbox);

  const expectStatus = async <R extends RouteSpec>(
    pending: Promise<RouteResponse<R>>,
    status: number,
  ): Promise<CallOutput<R>> => {
    const response = await pending;
    expect(response.statusCode, response.body).toBe(status);
    return response.body ? response.json() : ({} as CallOutput<R>);
  };
  const category = (user: TestUser, group: string, name: string) =>
    expectStatus(t.as(user).call(transactionCategoryRoutes.create, { group, name }), 201);
  const visibleCategoryIds = async (user: TestUser) =>
    (
      await expectStatus(t.as(user).call(transactionCategoryRoutes.list, { page_size: 500 }), 200)
    ).results.map((c) => c.id);

  it("lets the co-owner see and change the account, its budgets and its transactions", async () => {
    const owner = await t.user();
    const partner = await t.user();
    const account = await kit.account(owner);
    const groceries = await expectStatus(
      t.as(owner).call(budgetRoutes.create, {
        name: "Groceries",
        bank_account: account.id,
        budget_type: "G",
        funding_type: "F",
        target_balance: "300",
        funding_amount: "50",
      }),
      201,
    );
    const coffee = await expectStatus(
      t.as(owner).call(transactionRoutes.create, {
        bank_account: account.id,
        amount: "-4.50",
        transaction_date: "2026-03-10T12:00:00Z",
        raw_description: "COFFEE SHOP",
        transaction_type: "signature_purchase",
      }),
      201,
    );

    // Before: nothing of the account is the partner's to see.
    await expectStatus(t.as(partner).call(bankAccountRoutes.get, { id: account.id }), 404);
    await expectStatus(t.as(partner).call(budgetRoutes.get, { id: groceries.id }), 404);
    await expectStatus(t.as(partner).call(transactionRoutes.get, { id: coffee.id }), 404);

    const { secret } = await kit.invited(owner, account.id, partner.email);
    expect((await kit.accept(secret)).statusCode).toBe(200);

    await expectStatus(
      t.as(partner).call(bankAccountRoutes.update, { id: account.id, name: "Our Checking" }),
      200,
    );
    expect((await expectStatus(t.as(owner).call(bankAccountRoutes.get, { id: account.id }), 200)).name).toBe(
      "Our Checking",
    );

    const budgets = await expectStatus(
      t.as(partner).call(budgetRoutes.list, { bank_account: account.id }),
      200,
    );
    expect(budgets.results?.map((b) => b.name).sort()).toEqual(["Groceries", "Unallocated"]);
    await expectStatus(t.as(partner).call(budgetRoutes.update, { id: groceries.id, name: "Food" }), 200);
    const outings = await expectStatus(
      t.as(partner).call(budgetRoutes.create, {
        name: "Outings",
        bank_account: account.id,
        budget_type: "G",
        funding_type: "F",
        target_balance: "100",
        funding_amount: "10",
      }),
      201,
    );
    await expectStatus(
      t.as(partner).call(internalTransactionRoutes.create, {
        bank_account: account.id,
        amount: "25.00",
        src_budget: account.unallocated_budget,
        dst_budget: outings.id,
      }),
      201,
    );

    const listed = await expectStatus(
      t.as(partner).call(transactionRoutes.list, { bank_account: account.id }),
      200,
    );
    expect(listed.results?.map((row) => row.id)).toEqual([coffee.id]);
    await expectStatus(
      t.as(partner).call(transactionRoutes.update, { id: coffee.id, memo: "with Sam" }),
      200,
    );
    const lunch = await expectStatus(
      t.as(partner).call(transactionRoutes.create, {
        bank_account: account.id,
        amount: "-12.00",
        transaction_date: "2026-03-11T12:00:00Z",
        raw_description: "LUNCH",
        transaction_type: "signature_purchase",
      }),
      201,
    );
    await expectStatus(t.as(owner).call(transactionRoutes.get, { id: lunch.id }), 200);
    expect((await expectStatus(t.as(owner).call(budgetRoutes.get, { id: outings.id }), 200)).balance).toBe(
      "25.00",
    );
    expect(await verifyLedger(t.db, account.id)).toEqual([]);
  });

  it("makes each co-owner's categories visible to the other and usable on the account", async () => {
    const owner = await t.user();
    const partner = await t.user();
    const stranger = await t.user();
    const account = await kit.account(owner);
    const pets = await category(owner, "Pets", "Food");
    const books = await category(partner, "Hobbies", "Books");
    expect(await visibleCategoryIds(partner)).not.toContain(pets.id);
    await expectStatus(t.as(owner).call(transactionCategoryRoutes.get, { id: books.id }), 404);

    const { secret } = await kit.invited(owner, account.id, partner.email);
    expect((await kit.accept(secret)).statusCode).toBe(200);

    expect(await visibleCategoryIds(partner)).toContain(pets.id);
    expect(await visibleCategoryIds(owner)).toContain(books.id);
    expect(await visibleCategoryIds(stranger)).not.toContain(books.id);
    const seen = await expectStatus(t.as(owner).call(transactionCategoryRoutes.get, { id: books.id }), 200);
    expect(seen.owner).toBe(partner.username);

    // Each may file the account's transactions under the other's category, but not change it.
    const row = await expectStatus(
      t.as(partner).call(transactionRoutes.create, {
        bank_account: account.id,
        amount: "-30.00",
        transaction_date: "2026-03-12T12:00:00Z",
        raw_description: "PET SHOP",
        transaction_type: "signature_purchase",
        category: pets.id,
      }),
      201,
    );
    expect(row.category_full_name).toBe("Pets : Food");
    await expectStatus(
      t.as(owner).call(budgetRoutes.create, {
        name: "Reading",
        bank_account: account.id,
        budget_type: "G",
        funding_type: "F",
        target_balance: "60",
        funding_amount: "5",
        auto_spend: ["hobbies:books"],
      }),
      201,
    );
    await expectStatus(
      t.as(owner).call(transactionCategoryRoutes.update, { id: books.id, name: "Novels" }),
      403,
    );
    await expectStatus(t.as(partner).call(transactionCategoryRoutes.delete, { id: pets.id }), 403);
  });
});
