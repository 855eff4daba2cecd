import { testEngines } from "@allot/db/testing/test-databases";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/testing/test-app";
import {
  BASE,
  type Category,
  categoriesKit,
  ISO_DATE_TIME,
  MISSING,
  UUID,
} from "../../../test/testing/transaction-categories-test-kit";

describe.each(testEngines())("transaction categories over HTTP: create and retrieve (%s)", (engine) => {
  const t = useTestApp(engine);
  const kit = categoriesKit(t);
  const { create, listAll, created, retrieve, account } = kit;
  let globals: Category[];
  const globalNamed = (fullName: string) => kit.globalNamed(globals, fullName);

  beforeAll(async () => {
    globals = await listAll(await t.user(), { scope: "global" });
  });

  describe("create", () => {
    it("normalises whitespace, makes the caller the owner and answers 201", async () => {
      const user = await t.user();
      const response = await create(user, { group: "  Side \u00a0  Hustle ", name: " Etsy   Sales  " });
      expect(response.statusCode, response.body).toBe(201);
      const category = response.json();
      expect(category).toEqual({
        id: expect.stringMatching(UUID),
        group: "Side Hustle",
        name: "Etsy Sales",
        full_name: "Side Hustle : Etsy Sales",
        owner: user.username,
        archived: false,
        created_at: expect.stringMatching(ISO_DATE_TIME),
        modified_at: expect.stringMatching(ISO_DATE_TIME),
      });
      const fetched = await retrieve(user, category.id);
      expect(fetched.statusCode).toBe(200);
      expect(fetched.json()).toEqual(category);
    });

    it("accepts form-encoded and multipart bodies", async () => {
      const user = await t.user();
      const form = await t.inject({
        method: "POST",
        url: BASE,
        headers: { authorization: user.bearer, "content-type": "application/x-www-form-urlencoded" },
        payload: "group=Garden&name=Seeds+%26+Bulbs",
      });
      expect(form.statusCode, form.body).toBe(201);
      expect(form.json()).toMatchObject({ group: "Garden", name: "Seeds & Bulbs", owner: user.username });

      const boundary = "----allot-categories-boundary";
      const multipart = await t.inject({
        method: "POST",
        url: BASE,
        headers: { authorization: user.bearer, "content-type": `multipart/form-data; boundary=${boundary}` },
        payload:
          `--${boundary}\r\nContent-Disposition: form-data; name="group"\r\n\r\nGarden\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nTools\r\n--${boundary}--\r\n`,
      });
      expect(multipart.statusCode, multipart.body).toBe(201);
      expect(multipart.json()).toMatchObject({ full_name: "Garden : Tools" });
    });

    it.each([
      ["a missing group", { name: "Seeds" }, "group", "This field is required."],
      ["a missing name", { group: "Garden" }, "name", "This field is required."],
      ["a blank group", { group: "   ", name: "Seeds" }, "group", "This field may not be blank."],
      ["a blank name", { group: "Garden", name: " \u00a0 " }, "name", "This field may not be blank."],
      [
        "a tab or a line break (control characters)",
        { group: "Garden", name: "Seeds\t\n" },
        "name",
        "Control characters (line breaks, tabs, escape codes) are not allowed in a name.",
      ],
      [
        "a group over 100 characters",
        { group: "g".repeat(101), name: "Seeds" },
        "group",
        "Ensure this field has no more than 100 characters.",
      ],
      [
        "a name over 100 characters",
        { group: "Garden", name: `${"n".repeat(60)} ${"n".repeat(40)}` },
        "name",
        "Ensure this field has no more than 100 characters.",
      ],
      [
        "a colon in the group",
        { group: "Garden: Outdoor", name: "Seeds" },
        "group",
        "A group may not contain a colon.",
      ],
      ["a number for the name", { group: "Garden", name: 12 }, "name", expect.any(String)],
    ])("refuses %s: 400 on the field", async (_label, payload, field, message) => {
      const user = await t.user();
      const response = await create(user, payload);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toEqual({ [field]: [message] });
      expect(await listAll(user, { scope: "mine" })).toEqual([]);
    });

    it("measures length after normalising: 100 characters padded with whitespace is fine", async () => {
      const user = await t.user();
      const name = `${"n".repeat(50)}${" ".repeat(5)}${"m".repeat(49)}`;
      const category = await created(user, "Long", `   ${name}   `);
      expect(category.name).toBe(`${"n".repeat(50)} ${"m".repeat(49)}`);
      expect(category.name).toHaveLength(100);
    });

    it("allows a colon in the name: the full name splits on the first colon", async () => {
      const user = await t.user();
      const category = await created(user, "Travel Plans", "Flights: International");
      expect(category.full_name).toBe("Travel Plans : Flights: International");
    });

    it("refuses a case-insensitive duplicate of a global category: 400 on non_field_errors", async () => {
      const user = await t.user();
      const response = await create(user, { group: " food   &  DRINK ", name: "groceries" });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toEqual({ non_field_errors: [expect.stringContaining("already exists")] });
      expect(await listAll(user, { scope: "mine" })).toEqual([]);
    });

    it("refuses a case-insensitive duplicate of one's own, but not of another user's or a co-owner's", async () => {
      const user = await t.user();
      const coOwner = await t.user();
      const stranger = await t.user();
      await account(user, coOwner);
      await created(coOwner, "Hobbies", "Pottery");
      await created(stranger, "Hobbies", "Pottery");

      const mine = await created(user, "Hobbies", "Pottery");
      expect(mine.owner).toBe(user.username);
      const again = await create(user, { group: "HOBBIES", name: " pottery " });
      expect(again.statusCode).toBe(400);
      expect(Object.keys(again.json())).toEqual(["non_field_errors"]);
      // Same name in another group is a different category.
      await created(user, "Crafts", "Pottery");
    });

    it("creates one of two identical requests sent at once; the other is a 400", async () => {
      const user = await t.user();
      const responses = await Promise.all([
        create(user, { group: "Race", name: "Twins" }),
        create(user, { group: "race", name: "TWINS" }),
      ]);
      expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 400]);
      expect(await listAll(user, { scope: "mine" })).toHaveLength(1);
    });
  });

  describe("retrieve", () => {
    it("answers 404 for another user's category, an unknown id and a malformed id", async () => {
      const owner = await t.user();
      const stranger = await t.user();
      const category = await created(owner, "Private", "Secret");
      for (const response of [
        await retrieve(stranger, category.id),
        await retrieve(stranger, MISSING),
        await retrieve(stranger, "not-a-uuid"),
      ]) {
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ detail: expect.any(String), code: "not_found" });
      }
    });

    it("works without the trailing slash", async () => {
      const user = await t.user();
      const response = await t.inject({
        url: `${BASE}${globalNamed("Home : Rent").id}`,
        headers: { authorization: user.bearer },
      });
      expect(response.statusCode).toBe(200);
    });
  });
});
