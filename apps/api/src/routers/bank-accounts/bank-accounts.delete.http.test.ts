import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { userRoutes } from "@allot/contract/users/routes";
import { users } from "@allot/db/schema/users";
import { testEngines } from "@allot/db/testing/test-databases";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useBankAccountsKit } from "../../../test/testing/bank-accounts-test-kit";
import { useTestApp } from "../../../test/testing/test-app";

describe.each(testEngines())("bank accounts over HTTP: delete (%s)", (engine) => {
  const t = useTestApp(engine);
  const { createdAccount, get, budgetsOf } = useBankAccountsKit(t);

  describe("delete", () => {
    it("deletes the account with its budgets and clears owners' default account", async () => {
      const user = await t.user();
      const account = await createdAccount(user);
      const keep = await createdAccount(user, { name: "Keep" });
      const setDefault = await t.as(user).call(userRoutes.updateMe, { default_bank_account: account.id });
      expect(setDefault.json().default_bank_account).toBe(account.id);

      const response = await t.as(user).call(bankAccountRoutes.delete, { id: account.id });
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe("");
      expect((await get(user, account.id)).statusCode).toBe(404);
      expect(await budgetsOf(account.id)).toEqual([]);
      expect(await budgetsOf(keep.id)).toHaveLength(1);
      const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
      expect(row?.defaultBankAccountId).toBeNull();
      const again = await t.as(user).call(bankAccountRoutes.delete, { id: account.id });
      expect(again.statusCode).toBe(404);
    });

    it("needs an interactive login: an API key gets 403 and nothing is deleted", async () => {
      const user = await t.user();
      const account = await createdAccount(user);
      const response = await t.as(await t.apiKey(user)).call(bankAccountRoutes.delete, { id: account.id });
      expect(response.statusCode).toBe(403);
      expect(response.json<{ code: string }>().code).toBe("interactive_login_required");
      expect((await get(user, account.id)).statusCode).toBe(200);
      expect((await t.anonymous.call(bankAccountRoutes.delete, { id: account.id })).statusCode).toBe(401);
    });
  });
});
