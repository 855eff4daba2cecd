import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/testing/test-app";
import { categoriesKit } from "../../../test/testing/transaction-categories-test-kit";

describe.each(testEngines())(
  "transaction categories over HTTP: visibility through co-ownership (%s)",
  (engine) => {
    const t = useTestApp(engine);
    const kit = categoriesKit(t);
    const {
      listAll,
      created,
      retrieve,
      put,
      patch,
      remove,
      archive,
      account,
      endSharing,
      transaction,
      allocation,
    } = kit;

    describe("visibility through co-ownership", () => {
      it("shows a co-owner's categories; only the owner may change them (403); strangers get 404", async () => {
        const owner = await t.user();
        const coOwner = await t.user();
        const stranger = await t.user();
        await account(owner, coOwner);
        const category = await created(owner, "Shared", "Household Goods");

        const seen = await retrieve(coOwner, category.id);
        expect(seen.statusCode).toBe(200);
        expect(seen.json()).toEqual(category);
        expect((await listAll(coOwner)).map((c) => c.id)).toContain(category.id);

        for (const response of [
          await put(coOwner, category.id, { group: "Shared", name: "Mine Now" }),
          await patch(coOwner, category.id, { name: "Mine Now" }),
          await archive(coOwner, category.id),
          await remove(coOwner, category.id),
        ]) {
          expect(response.statusCode, response.body).toBe(403);
          expect(response.json()).toEqual({ detail: expect.any(String), code: "permission_denied" });
        }

        for (const response of [
          await retrieve(stranger, category.id),
          await put(stranger, category.id, { group: "Shared", name: "Mine Now" }),
          await patch(stranger, category.id, { name: "Mine Now" }),
          await archive(stranger, category.id),
          await remove(stranger, category.id),
        ]) {
          expect(response.statusCode, response.body).toBe(404);
          expect(response.json<{ code: string }>().code).toBe("not_found");
        }
        expect((await listAll(stranger)).map((c) => c.id)).not.toContain(category.id);
        expect((await retrieve(owner, category.id)).json()).toEqual(category);
      });

      it("keeps categories the caller's transactions or allocations reference visible after sharing ends", async () => {
        const owner = await t.user();
        const formerCoOwner = await t.user();
        const accountId = await account(owner, formerCoOwner);
        const onTransaction = await created(formerCoOwner, "Former", "On Transaction");
        const onAllocation = await created(formerCoOwner, "Former", "On Allocation");
        const unused = await created(formerCoOwner, "Former", "Unused");
        await transaction(accountId, onTransaction.id);
        await allocation(accountId, onAllocation.id);
        expect((await listAll(owner, { scope: "shared" })).map((c) => c.id).sort()).toEqual(
          [onTransaction.id, onAllocation.id, unused.id].sort(),
        );

        await endSharing(accountId, formerCoOwner);

        expect((await retrieve(owner, onTransaction.id)).statusCode).toBe(200);
        expect((await retrieve(owner, onAllocation.id)).statusCode).toBe(200);
        expect((await retrieve(owner, unused.id)).statusCode).toBe(404);
        expect((await listAll(owner, { scope: "shared" })).map((c) => c.id).sort()).toEqual(
          [onTransaction.id, onAllocation.id].sort(),
        );
        // Still someone else's: visible, but not the caller's to change.
        expect((await patch(owner, onTransaction.id, { name: "Renamed" })).statusCode).toBe(403);
        // The former co-owner no longer sees the account's owner's categories.
        const ownersOwn = await created(owner, "Owner", "Own");
        expect((await retrieve(formerCoOwner, ownersOwn.id)).statusCode).toBe(404);
      });
    });
  },
);
