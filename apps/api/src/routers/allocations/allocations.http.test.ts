import { allocationRoutes } from "@allot/contract/allocations/routes";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { beforeAll, describe, expect, it } from "vitest";
import { type TestUser, useTestApp } from "../../../test/testing/test-app";
import type { CallInput } from "../../../test/testing/test-client";
import { transactionKit } from "../../../test/testing/transaction-test-kit";

describe.each(testEngines())("allocations over HTTP (%s)", (engine) => {
  const t = useTestApp(engine);
  const kit = transactionKit(t);

  let user: TestUser;
  let stranger: TestUser;
  let account: { id: string; unallocated: string };
  let second: { id: string; unallocated: string };
  let budget: string;
  let groceries: string;
  let foreignAllocation: string;
  const tx: Record<string, { id: string; allocations: { id: string }[] }> = {};

  beforeAll(async () => {
    user = await t.user();
    stranger = await t.user();
    account = await kit.account(user);
    second = await kit.account(user);
    const foreign = await kit.account(stranger);
    const [allocation] = (await kit.transaction(stranger, foreign.id)).allocations;
    if (!allocation) throw new Error("no allocation");
    foreignAllocation = allocation.id;
    budget = await kit.budget(account.id);
    groceries = await kit.category("Food & Drink", "Groceries");
    tx.grocer = await kit.transaction(user, account.id, { amount: "-40.00", category: groceries });
    tx.plain = await kit.transaction(user, account.id, { amount: "-5.00" });
    tx.other = await kit.transaction(user, second.id, { amount: "-1.00" });
    const split = await t
      .as(user)
      .call(transactionRoutes.split, { id: String(tx.grocer?.id), splits: { [budget]: "15.00" } });
    if (split.statusCode !== 200) throw new Error(split.body);
  });

  type Query = CallInput<typeof allocationRoutes.list>;
  const list = async (query: Query = {}) => {
    const response = await t.as(user).call(allocationRoutes.list, query);
    expect(response.statusCode, `${JSON.stringify(query)}: ${response.body}`).toBe(200);
    return response.json();
  };
  const amountsOf = async (query: Query) => (await list(query)).results.map((a) => a.amount);

  it("lists the caller's allocations oldest first, with snapshots and category names", async () => {
    const body = await list();
    expect(body.count).toBe(4);
    expect(body.results.map((a) => a.amount)).toEqual(["-25.00", "-5.00", "-1.00", "-15.00"]);
    expect(body.results[0]).toMatchObject({
      transaction: tx.grocer?.id,
      budget: account.unallocated,
      amount_currency: "USD",
      budget_balance: "975.00",
      budget_balance_currency: "USD",
      category: groceries,
      category_full_name: "Food & Drink : Groceries",
      memo: null,
    });
    expect(await amountsOf({ ordering: "-created_at" })).toEqual(["-15.00", "-1.00", "-5.00", "-25.00"]);
    expect(await amountsOf({ ordering: "created_at" })).toEqual(["-25.00", "-5.00", "-1.00", "-15.00"]);
  });

  it("filters by account, budget, category, transaction, category group and uncategorized", async () => {
    expect(await amountsOf({ bank_account: second.id })).toEqual(["-1.00"]);
    expect(await amountsOf({ budget })).toEqual(["-15.00"]);
    expect(await amountsOf({ category: groceries })).toEqual(["-25.00", "-15.00"]);
    expect(await amountsOf({ transaction: tx.grocer?.id })).toEqual(["-25.00", "-15.00"]);
    expect(await amountsOf({ category_group: "FOOD & DRINK" })).toEqual(["-25.00", "-15.00"]);
    expect(await amountsOf({ uncategorized: true })).toEqual(["-5.00", "-1.00"]);
    expect(await amountsOf({ uncategorized: false })).toEqual(["-25.00", "-15.00"]);
  });

  it("paginates and refuses bad filters with 400 on the parameter", async () => {
    const first = await list({ page_size: 3 });
    expect(first.results).toHaveLength(3);
    expect(first.next).toContain("page=2");
    expect((await t.as(user).call(allocationRoutes.list, { page: 3, page_size: 3 })).statusCode).toBe(404);
    const bad: Record<string, unknown>[] = [
      { budget: "x" },
      { transaction: "1" },
      { uncategorized: "maybe" },
      { ordering: "amount" },
    ];
    for (const query of bad) {
      const response = await t.as(user).callUnchecked(allocationRoutes.list, query);
      expect(response.statusCode, JSON.stringify(query)).toBe(400);
      expect(Object.keys(response.json<Record<string, unknown>>())).toEqual(Object.keys(query));
    }
  });

  it("retrieves one allocation; another user's is 404, and writes are 405", async () => {
    const id = String(tx.plain?.allocations[0]?.id);
    const own = await t.as(user).call(allocationRoutes.get, { id });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ id, amount: "-5.00", budget: account.unallocated });
    const foreign = await t.as(user).call(allocationRoutes.get, { id: foreignAllocation });
    expect(foreign.statusCode).toBe(404);
    const theirs = await t.as(stranger).call(allocationRoutes.get, { id });
    expect(theirs.statusCode).toBe(404);
    expect((await list({ transaction: tx.plain?.id })).count).toBe(1);
    const strangerList = await t.as(stranger).call(allocationRoutes.list);
    expect(strangerList.json().count).toBe(1);
    // Raw: wrong methods, which no contract route describes.
    for (const method of ["PUT", "PATCH", "DELETE"] as const) {
      const response = await t.inject({
        method,
        url: `/api/v1/allocations/${id}/`,
        headers: { authorization: user.bearer },
        payload: method === "DELETE" ? undefined : {},
      });
      expect(response.statusCode, method).toBe(405);
    }
    const post = await t.inject({
      method: "POST",
      url: "/api/v1/allocations/",
      headers: { authorization: user.bearer },
      payload: {},
    });
    expect(post.statusCode).toBe(405);
  });
});
