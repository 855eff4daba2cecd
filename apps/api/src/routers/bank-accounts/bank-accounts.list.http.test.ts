import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { bankAccountOwners, bankAccounts } from "@allot/db/schema/bank-accounts";
import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { useBankAccountsKit } from "../../../test/testing/bank-accounts-test-kit";
import { useTestApp } from "../../../test/testing/test-app";
import type { CallInput } from "../../../test/testing/test-client";

describe.each(testEngines())("bank accounts over HTTP: list (%s)", (engine) => {
  const t = useTestApp(engine);
  const { banks, createdAccount } = useBankAccountsKit(t);

  describe("list", () => {
    it("lists only the caller's accounts, filtered, ordered and paginated", async () => {
      const user = await t.user();
      const other = await t.user();
      await createdAccount(other, { name: "Not mine" });
      const b = await createdAccount(user, { name: "Bravo", account_type: "S" });
      const a = await createdAccount(user, { name: "alpha" });
      const c = await createdAccount(user, { name: "Charlie", account_type: "X" });
      type Query = CallInput<typeof bankAccountRoutes.list>;
      const list = (query: Query, who = user) => t.as(who).call(bankAccountRoutes.list, query);
      const names = async (query: Query) => {
        const response = await list(query);
        expect(response.statusCode, response.body).toBe(200);
        return response.json().results.map((r) => r.name);
      };

      const all = (await list({})).json();
      expect(all.count).toBe(3);
      expect(all.next).toBeNull();
      expect(all.previous).toBeNull();
      expect(all.results.map((r: { id: string }) => r.id).sort()).toEqual([a.id, b.id, c.id].sort());
      expect(all.results.find((r: { id: string }) => r.id === a.id)).toEqual(a);

      expect(await names({})).toEqual(["alpha", "Bravo", "Charlie"]);
      expect(await names({ ordering: "name" })).toEqual(["alpha", "Bravo", "Charlie"]);
      expect(await names({ ordering: "-name" })).toEqual(["Charlie", "Bravo", "alpha"]);
      expect(await names({ ordering: "created_at" })).toEqual(["Bravo", "alpha", "Charlie"]);
      expect(await names({ ordering: "-created_at" })).toEqual(["Charlie", "alpha", "Bravo"]);
      expect(await names({ account_type: "S" })).toEqual(["Bravo"]);
      expect(await names({ account_type: "X", ordering: "name" })).toEqual(["Charlie"]);
      expect(await names({ account_type: "S", ordering: "-created_at" })).toEqual(["Bravo"]);

      const first = (await list({ ordering: "created_at", page_size: 2 })).json();
      expect(first.count).toBe(3);
      expect(first.results.map((r: { name: string }) => r.name)).toEqual(["Bravo", "alpha"]);
      expect(first.previous).toBeNull();
      const nextUrl = new URL(String(first.next));
      expect(nextUrl.searchParams.get("page")).toBe("2");
      expect(nextUrl.searchParams.get("ordering")).toBe("created_at");
      // The next link itself, followed as a client would.
      const second = (
        await t.inject({
          url: `/api/v1/bank-accounts/${nextUrl.search}`,
          headers: { authorization: user.bearer },
        })
      ).json();
      expect(second.results.map((r: { name: string }) => r.name)).toEqual(["Charlie"]);
      expect(second.next).toBeNull();
      expect(second.previous).toContain("page=1");

      const past = await list({ page: 3, page_size: 2 });
      expect(past.statusCode).toBe(404);
      expect(past.json()).toEqual({ detail: "Invalid page.", code: "not_found" });
      expect((await list({ page: 2 })).statusCode).toBe(404);

      const capped = await list({ page_size: 100000 });
      expect(capped.statusCode).toBe(200);
      expect(capped.json().count).toBe(3);

      const empty = (await list({}, await t.user())).json();
      expect(empty).toEqual({ count: 0, next: null, previous: null, results: [] });
    });

    it("caps page_size at 500", async () => {
      const user = await t.user();
      // 501 accounts straight into the database: creating them over HTTP would only be slower.
      const rows = await t.db
        .insert(bankAccounts)
        .values(
          Array.from({ length: 501 }, (_, i) => ({ name: `Bulk ${i}`, bankId: banks.euro, currency: "EUR" })),
        )
        .returning({ id: bankAccounts.id });
      await t.db
        .insert(bankAccountOwners)
        .values(rows.map(({ id }) => ({ bankAccountId: id, userId: user.id })));

      const first = await t.as(user).call(bankAccountRoutes.list, { page_size: 10000 });
      expect(first.statusCode).toBe(200);
      expect(first.json().count).toBe(501);
      expect(first.json().results).toHaveLength(500);
      const next = new URL(String(first.json().next));
      expect(next.searchParams.get("page_size")).toBe("500");
      // Raw: the next link as the server wrote it.
      const second = await t.inject({
        url: `/api/v1/bank-accounts/${next.search}`,
        headers: { authorization: user.bearer },
      });
      expect(second.json().results).toHaveLength(1);
      expect(second.json().next).toBeNull();
      const past = await t.as(user).call(bankAccountRoutes.list, { page_size: 501, page: 3 });
      expect(past.statusCode).toBe(404);
    });

    it("refuses bad parameters with 400 on the parameter, and anonymous callers with 401", async () => {
      const user = await t.user();
      for (const [query, key] of [
        [{ account_type: "Q" }, "account_type"],
        [{ ordering: "balance" }, "ordering"],
        [{ page: "0" }, "page"],
        [{ page_size: "0" }, "page_size"],
        [{ page: "two" }, "page"],
      ] as const) {
        const response = await t.as(user).callUnchecked(bankAccountRoutes.list, query);
        expect(response.statusCode, JSON.stringify(query)).toBe(400);
        expect(Object.keys(response.json())).toEqual([key]);
      }
      expect((await t.anonymous.call(bankAccountRoutes.list)).statusCode).toBe(401);
    });
  });
});
