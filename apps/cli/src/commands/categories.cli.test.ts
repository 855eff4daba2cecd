import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { useCliServer } from "../../test/testing/cli-server";

// Each test runs the real CLI several times: one to three seconds each, far more on a busy machine.
const SLOW = { timeout: 600_000 };

interface CategoryJson {
  id: string;
  group: string;
  name: string;
  full_name: string;
  owner: string | null;
  archived: boolean;
}

describe.each(testEngines())("allot categories against a running API (%s)", (engine) => {
  const server = useCliServer(engine);

  it('creates "Group : Name", lists with filters, renames, archives and deletes by name', SLOW, async () => {
    const { user, allot } = await server.apiKeyUser();
    const group = `Food ${Date.now()}`;

    const created = await allot(["categories", "create", `${group}:Groceries`, "--json"]);
    expect(created.stderr).toBe("");
    expect(created.json<CategoryJson>()).toMatchObject({
      group,
      name: "Groceries",
      full_name: `${group} : Groceries`,
      owner: user.username,
      archived: false,
    });
    const other = await allot(["categories", "create", `${group} : Takeaway`]);
    expect(other.code).toBe(0);
    expect(other.stdout).toMatch(new RegExp(`^full name +${group} : Takeaway$`, "m"));

    const mine = await allot(["categories", "--scope", "mine", "--group", group.toLowerCase()]);
    expect(mine.code).toBe(0);
    expect(mine.stdout.split("\n").map((line) => line.split(/ {2,}/).slice(0, 4))).toEqual([
      ["GROUP", "NAME", "OWNER", "ARCHIVED", "ID"].slice(0, 4),
      [group, "Groceries", user.username, "no"],
      [group, "Takeaway", user.username, "no"],
      [""],
    ]);

    const renamed = await allot([
      "categories",
      "rename",
      `${group.toUpperCase()} :  groceries`,
      "Supermarket",
      "--json",
    ]);
    expect(renamed.stderr).toBe("");
    expect(renamed.json<CategoryJson>()).toMatchObject({ group, name: "Supermarket" });
    const moved = await allot(["categories", "rename", "supermarket", `${group} : Shops`, "--json"]);
    expect(moved.json<CategoryJson>()).toMatchObject({ group, name: "Shops" });

    const unconfirmed = await allot(["categories", "archive", "Takeaway"]);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain("pass --yes to confirm");
    const archived = await allot(["categories", "archive", "Takeaway", "--yes", "--json"]);
    expect(archived.json<CategoryJson>()).toMatchObject({ name: "Takeaway", archived: true });

    const onlyArchived = await allot(["categories", "--archived", "--scope", "mine", "--csv"]);
    expect(onlyArchived.stdout).toBe(
      `Group,Name,Owner,Archived,Id\n${group},Takeaway,${user.username},yes,${archived.json<CategoryJson>().id}\n`,
    );
    const active = await allot(["categories", "list", "--no-archived", "--search", group, "--json"]);
    expect(active.json<CategoryJson[]>().map((c) => c.name)).toEqual(["Shops"]);

    const deleted = await allot(["categories", "delete", `${group} : Shops`, "--yes"]);
    expect(deleted.stderr).toBe("");
    expect(deleted.stdout).toBe(`Deleted category '${group} : Shops'.\n`);
  });

  it("refuses a name without a group, and unknown categories, with exit 2", SLOW, async () => {
    const { allot } = await server.apiKeyUser();
    const noGroup = await allot(["categories", "create", "Groceries"]);
    expect(noGroup.code).toBe(2);
    expect(noGroup.stderr).toBe(
      'error: <category> must be "Group : Name" (e.g. "Food : Groceries"), not \'Groceries\'.\n',
    );
    const unknown = await allot(["categories", "delete", "Nowhere : Nothing", "--yes", "--json"]);
    expect(unknown.code).toBe(2);
    expect(unknown.errorJson()).toEqual({
      detail: "No category is named 'Nowhere : Nothing': see `allot categories --search \"Nothing\"`.",
      code: "unknown_category",
    });
  });
});
