import { transactions } from "@allot/db/schema/transactions";
import { testEngines } from "@allot/db/testing/test-databases";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/testing/test-app";
import {
  BASE,
  categoriesKit,
  ISO_DATE_TIME,
  MISSING,
} from "../../../test/testing/transaction-categories-test-kit";

describe.each(testEngines())("transaction categories over HTTP: archive (%s)", (engine) => {
  const t = useTestApp(engine);
  const kit = categoriesKit(t);
  const { created, retrieve, patch, archive, account, transaction, createTransaction } = kit;

  describe("archive", () => {
    it("hides nothing from retrieval, keeps references valid, and repeating it is harmless", async () => {
      const user = await t.user();
      const accountId = await account(user);
      const category = await created(user, "Archive", "Me");
      const transactionId = await transaction(accountId, category.id);

      const response = await archive(user, category.id);
      expect(response.statusCode, response.body).toBe(200);
      const archived = response.json();
      expect(archived).toEqual({
        ...category,
        archived: true,
        modified_at: expect.stringMatching(ISO_DATE_TIME),
      });

      const again = await archive(user, category.id);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(archived);

      expect((await retrieve(user, category.id)).json()).toEqual(archived);
      const [row] = await t.db.select().from(transactions).where(eq(transactions.id, transactionId));
      expect(row?.categoryId).toBe(category.id);
      // Still the owner's to rename.
      expect((await patch(user, category.id, { name: "Renamed" })).json()).toMatchObject({
        name: "Renamed",
        archived: true,
      });
    });

    it("takes no new references: a new transaction naming it is 400 on category", async () => {
      const user = await t.user();
      const accountId = await account(user);
      const category = await created(user, "Archive", "Closed");
      expect((await createTransaction(user, accountId, category.id)).statusCode).toBe(201);
      expect((await archive(user, category.id)).statusCode).toBe(200);
      const refused = await createTransaction(user, accountId, category.id);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json()).toEqual({ category: ["This category is archived."] });
      // The reference made before archiving stays.
      expect(
        await t.db.select().from(transactions).where(eq(transactions.categoryId, category.id)),
      ).toHaveLength(1);
    });

    it("answers 404 for an unknown id, and GET on the archive path is 405", async () => {
      const user = await t.user();
      expect((await archive(user, MISSING)).statusCode).toBe(404);
      const category = await created(user, "Archive", "Method");
      const wrong = await t.inject({
        url: `${BASE}${category.id}/archive/`,
        headers: { authorization: user.bearer },
      });
      expect(wrong.statusCode).toBe(405);
    });
  });
});
