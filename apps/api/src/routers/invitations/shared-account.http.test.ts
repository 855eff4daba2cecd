import { testEngines } from "@allot/db/testing/test-databases";
import { verifyLedger } from "@allot/domain/ledger/verify-ledger";
import { describe, expect, it } from "vitest";
import { type TestUser, useTestApp } from "../../../test/testing/test-app";
import { useTestMailbox } from "../../../test/testing/test-mailbox";
import { invitationKit } from "./invitation-test-kit";

/** After an invitation is accepted, the co-owner works on the account as its first owner does. */
describe.each(testEngines())("a shared account after acceptance (%s)", (engine) => {
  const t = useTestApp(engine);
  const mailbox = useTestMailbox(() => t.db);
  const kit = invitationKit(t, mailbox);

  const call = (
    user: TestUser,
    method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE",
    url: string,
    payload?: object,
  ) => t.inject({ method, url: `/api/v1${url}`, headers: kit.auth(user), ...(payload ? { payload } : {}) });
  const expectStatus = async (
    pending: ReturnType<typeof call>,
    status: number,
  ): Promise<Record<string, unknown> & { results?: Record<string, unknown>[] }> => {
    const response = await pending;
    expect(response.statusCode, response.body).toBe(status);
    return response.body ? response.json() : {};
  };
  const category = (user: TestUser, group: string, name: string) =>
    expectStatus(call(user, "POST", "/transaction-categories/", { group, name }), 201);
  const visibleCategoryIds = async (user: TestUser) =>
    (
      (await expectStatus(call(user, "GET", "/transaction-categories/?page_size=500"), 200)).results ?? []
    ).map((c) => c.id);

  it("lets the co-owner see and change the account, its budgets and its transactions", async () => {
    const owner = await t.user();
    const partner = await t.user();
    const account = await kit.account(owner);
    const groceries = await expectStatus(
      call(owner, "POST", "/budgets/", {
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
      call(owner, "POST", "/transactions/", {
        bank_account: account.id,
        amount: "-4.50",
        transaction_date: "2026-03-10T12:00:00Z",
        raw_description: "COFFEE SHOP",
        transaction_type: "signature_purchase",
      }),
      201,
    );

    // Before: nothing of the account is the partner's to see.
    await expectStatus(call(partner, "GET", `/bank-accounts/${account.id}/`), 404);
    await expectStatus(call(partner, "GET", `/budgets/${groceries.id}/`), 404);
    await expectStatus(call(partner, "GET", `/transactions/${coffee.id}/`), 404);

    const { secret } = await kit.invited(owner, account.id, partner.email);
    expect((await kit.accept(secret)).statusCode).toBe(200);

    await expectStatus(
      call(partner, "PATCH", `/bank-accounts/${account.id}/`, { name: "Our Checking" }),
      200,
    );
    expect((await expectStatus(call(owner, "GET", `/bank-accounts/${account.id}/`), 200)).name).toBe(
      "Our Checking",
    );

    const budgets = await expectStatus(call(partner, "GET", `/budgets/?bank_account=${account.id}`), 200);
    expect(budgets.results?.map((b) => b.name).sort()).toEqual(["Groceries", "Unallocated"]);
    await expectStatus(call(partner, "PATCH", `/budgets/${groceries.id}/`, { name: "Food" }), 200);
    const outings = await expectStatus(
      call(partner, "POST", "/budgets/", {
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
      call(partner, "POST", "/internal-transactions/", {
        bank_account: account.id,
        amount: "25.00",
        src_budget: account.unallocated_budget,
        dst_budget: outings.id,
      }),
      201,
    );

    const listed = await expectStatus(call(partner, "GET", `/transactions/?bank_account=${account.id}`), 200);
    expect(listed.results?.map((row) => row.id)).toEqual([coffee.id]);
    await expectStatus(call(partner, "PATCH", `/transactions/${coffee.id}/`, { memo: "with Sam" }), 200);
    const lunch = await expectStatus(
      call(partner, "POST", "/transactions/", {
        bank_account: account.id,
        amount: "-12.00",
        transaction_date: "2026-03-11T12:00:00Z",
        raw_description: "LUNCH",
        transaction_type: "signature_purchase",
      }),
      201,
    );
    await expectStatus(call(owner, "GET", `/transactions/${lunch.id}/`), 200);
    expect((await expectStatus(call(owner, "GET", `/budgets/${outings.id}/`), 200)).balance).toBe("25.00");
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
    await expectStatus(call(owner, "GET", `/transaction-categories/${books.id}/`), 404);

    const { secret } = await kit.invited(owner, account.id, partner.email);
    expect((await kit.accept(secret)).statusCode).toBe(200);

    expect(await visibleCategoryIds(partner)).toContain(pets.id);
    expect(await visibleCategoryIds(owner)).toContain(books.id);
    expect(await visibleCategoryIds(stranger)).not.toContain(books.id);
    const seen = await expectStatus(call(owner, "GET", `/transaction-categories/${books.id}/`), 200);
    expect(seen.owner).toBe(partner.username);

    // Each may file the account's transactions under the other's category, but not change it.
    const row = await expectStatus(
      call(partner, "POST", "/transactions/", {
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
      call(owner, "POST", "/budgets/", {
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
    await expectStatus(call(owner, "PATCH", `/transaction-categories/${books.id}/`, { name: "Novels" }), 403);
    await expectStatus(call(partner, "DELETE", `/transaction-categories/${pets.id}/`), 403);
  });
});
