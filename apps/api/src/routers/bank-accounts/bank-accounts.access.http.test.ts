import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { useBankAccountsKit } from "../../../test/testing/bank-accounts-test-kit";
import { useTestApp } from "../../../test/testing/test-app";
import type { RouteCaller } from "../../../test/testing/test-client";

describe.each(testEngines())("bank accounts over HTTP: someone else's account (%s)", (engine) => {
  const t = useTestApp(engine);
  const { banks, createdAccount, get } = useBankAccountsKit(t);

  /** Every verb and action on one account, each labelled for the failure message. */
  const everyVerb = (caller: RouteCaller, id: string, name: string) =>
    [
      ["GET", () => caller.call(bankAccountRoutes.get, { id })],
      ["PUT", () => caller.call(bankAccountRoutes.replace, { id, name, bank: banks.euro })],
      ["PATCH", () => caller.call(bankAccountRoutes.update, { id, name })],
      ["DELETE", () => caller.call(bankAccountRoutes.delete, { id })],
      [
        "POST mark-imported",
        () => caller.call(bankAccountRoutes.markImported, { id, last_posted_through: "2024-01-01" }),
      ],
    ] as const;

  describe("someone else's account", () => {
    it("is 404 on every verb and action, for staff too, and stays unchanged", async () => {
      const owner = await t.user();
      const account = await createdAccount(owner, { name: "Private" });
      const stranger = await t.user();
      const staff = await t.user({ staff: true });
      for (const intruder of [stranger, staff]) {
        for (const [verb, send] of everyVerb(t.as(intruder), account.id, "Mine now")) {
          const response = await send();
          expect(response.statusCode, verb).toBe(404);
          expect(response.json()).toEqual({ detail: expect.any(String), code: "not_found" });
        }
        const listed = await t.as(intruder).call(bankAccountRoutes.list);
        expect(listed.json().results.map((r) => r.id)).not.toContain(account.id);
      }
      const after = await get(owner, account.id);
      expect(after.json()).toEqual(account);
    });

    it("targets the account in the path, whatever id the body carries", async () => {
      const user = await t.user();
      const mine = await createdAccount(user, { name: "Mine" });
      const theirs = await createdAccount(await t.user(), { name: "Theirs" });
      // Raw: the typed client takes the path's id from the input, so it cannot send another in the body.
      const response = await t.inject({
        method: "PATCH",
        url: `/api/v1/bank-accounts/${mine.id}/`,
        headers: { authorization: user.bearer },
        payload: { id: theirs.id, name: "Renamed", owners: ["someone"], unallocated_budget: null },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        id: mine.id,
        name: "Renamed",
        owners: [user.username],
        unallocated_budget: mine.unallocated_budget,
      });
    });

    it("answers every endpoint with 401 without credentials", async () => {
      const owner = await t.user();
      const account = await createdAccount(owner);
      for (const [verb, send] of [
        ["GET list", () => t.anonymous.call(bankAccountRoutes.list)],
        ...everyVerb(t.anonymous, account.id, "x"),
      ] as const) {
        const response = await send();
        expect(response.statusCode, verb).toBe(401);
        expect(response.json<{ code: string }>().code).toBe("not_authenticated");
      }
      expect((await get(owner, account.id)).json()).toEqual(account);
    });

    it("answers an unknown or malformed id with 404", async () => {
      const user = await t.user();
      for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
        const response = await get(user, id);
        expect(response.statusCode, id).toBe(404);
      }
    });
  });
});
