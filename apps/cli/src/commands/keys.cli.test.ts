import { apiKeyRoutes } from "@allot/contract/api-keys/routes";
import { userRoutes } from "@allot/contract/users/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { useCliServer } from "../../test/testing/cli-server";

// Each test runs the real CLI several times: one to three seconds each, far more on a busy machine.
const SLOW = { timeout: 600_000 };

interface KeyJson {
  uuid: string;
  name: string;
  prefix: string;
  expires_at: string | null;
  revoked_at: string | null;
  key?: string;
}

describe.each(testEngines())("allot keys against a running API (%s)", (engine) => {
  const server = useCliServer(engine);

  it(
    "creates keys (shown once, with a warning), lists them, revokes one by prefix or name, then all",
    SLOW,
    async () => {
      const { allot, client } = await server.loggedInUser();

      const created = await allot(["keys", "create", "nas importer", "--expires-in-days", "30", "--json"]);
      expect(created.code).toBe(0);
      expect(created.stderr).toContain("Store this key now");
      const nas = created.json<KeyJson>();
      expect(nas).toMatchObject({
        name: "nas importer",
        revoked_at: null,
        key: expect.stringMatching(/^allot_/),
      });
      expect(Date.parse(nas.expires_at ?? "") - Date.now()).toBeGreaterThan(29 * 86_400_000);
      // The new key works.
      const whoami = await server.t.as(`Api-Key ${nas.key}`).call(userRoutes.getMe);
      expect(whoami.statusCode).toBe(200);

      const plain = await allot(["keys", "create", "ci"]);
      expect(plain.code).toBe(0);
      expect(plain.stdout).toMatch(/^key +allot_\S{43}$/m);
      expect(plain.stdout).toMatch(/^expires at +never$/m);
      expect(plain.stderr).toBe(
        "Store this key now (e.g. in a password manager): it is not shown again. Use it as ALLOT_API_KEY or with --api-key.\n",
      );

      const table = await allot(["keys"]);
      expect(table.code).toBe(0);
      const rows = table.stdout
        .trimEnd()
        .split("\n")
        .map((line) => line.split(/ {2,}/));
      expect(rows.map((row) => row.slice(0, 3))).toEqual([
        ["NAME", "PREFIX", "STATUS"],
        ["ci", expect.stringMatching(/^allot_/), "active"],
        ["nas importer", nas.prefix, "active"],
      ]);
      expect(table.stdout).not.toContain(nas.key);

      const unconfirmed = await allot(["keys", "revoke", "nas importer"]);
      expect(unconfirmed.code).toBe(2);
      expect(unconfirmed.stderr).toBe(
        `error: Revoke API key 'nas importer' (${nas.prefix}…): this cannot be undone, so pass --yes to confirm.\n`,
      );
      const revoked = await allot(["keys", "revoke", nas.prefix, "--yes", "--json"]);
      expect(revoked.stderr).toBe("");
      expect(revoked.json<KeyJson>()).toMatchObject({ uuid: nas.uuid, revoked_at: expect.any(String) });
      const again = await allot(["keys", "revoke", "nas importer", "--yes"]);
      expect(again.code).toBe(2);
      expect(again.stderr).toContain("No active API key matches 'nas importer': see `allot keys`");

      const all = await allot(["keys", "revoke-all", "--yes"]);
      expect(all.stdout).toBe("Revoked 1 API key. Create a new one with `allot keys create NAME`.\n");
      const keys = await client.call(apiKeyRoutes.list, {});
      expect(keys.results.every((key) => key.revoked_at !== null)).toBe(true);
    },
  );

  it("refuses a bad --expires-in-days with exit 2, and explains an API key's 403", SLOW, async () => {
    const person = await server.loggedInUser();
    const bad = await person.allot(["keys", "create", "x", "--expires-in-days", "0"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      "error: --expires-in-days must be a whole number of days from 1 to 3650, not '0'.\n",
    );

    const { allot } = await server.apiKeyUser();
    const byKey = await allot(["keys"]);
    expect(byKey.code).toBe(1);
    expect(byKey.stderr).toBe(
      "error: This endpoint needs an interactive login; API keys are not accepted.\n" +
        "hint: API keys cannot do this. Run `allot login --email …`, then try again without --api-key or ALLOT_API_KEY.\n",
    );
  });
});
