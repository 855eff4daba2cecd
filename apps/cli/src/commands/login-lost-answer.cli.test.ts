import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { databaseDump } from "@allot/api/test/testing/database-dump";
import { apiKeyRoutes } from "@allot/contract/api-keys/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { createClient } from "@allot/sdk/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { useCliServer } from "../../test/testing/cli-server";
import { runCli } from "../../test/testing/run-cli";
import { useScriptedProxy } from "../../test/testing/scripted-proxy";

vi.setConfig({ testTimeout: 400_000, hookTimeout: 300_000 });

const API_KEYS = /^\/api\/v1\/users\/me\/api-keys\/$/;

/*
 * `allot login --create-api-key` when the server made the key and its answer was lost (issue 31,
 * decision 0049): the SDK resends the write with the same Idempotency-Key, the server replays the
 * answer it kept sealed, and the CLI stores the one key made, which works. The store keeps no key
 * in clear meanwhile.
 */
describe.each(testEngines())("allot login --create-api-key after a lost answer (%s)", (engine) => {
  const server = useCliServer(engine);
  const proxy = useScriptedProxy(() => server.baseUrl);
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "allot-cli-lost-key-"));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it("stores the key the first attempt made, from the replayed answer, and makes no second one", async () => {
    const user = await server.t.user();
    let cut = false;
    proxy.script = ({ method, path }) => {
      if (method !== "POST" || !API_KEYS.test(path) || cut) return "pass";
      cut = true;
      return "cut";
    };
    const configPath = join(folder, "config.json");
    const login = await runCli(
      ["login", "--email", user.email, "--create-api-key", "ci", "--profile", "ci", "--url", proxy.url],
      { env: { ALLOT_CONFIG: configPath }, stdin: `${user.password}\n` },
    );
    expect(login.stderr).toBe("");
    expect(login.code).toBe(0);

    const attempts = proxy.seen.filter((request) => request.method === "POST" && API_KEYS.test(request.path));
    expect(attempts.map((a) => [a.key, a.status, a.replayed, a.action])).toEqual([
      [attempts[0]?.key, 201, false, "cut"],
      [attempts[0]?.key, 201, true, "pass"],
    ]);
    const stored = JSON.parse(await readFile(configPath, "utf8")).profiles.ci;
    expect(stored.api_key).toEqual(expect.any(String));
    const client = createClient({ baseUrl: server.baseUrl, auth: { apiKey: stored.api_key } });
    expect((await client.users.getMe()).username).toBe(user.username);
    const keys = await server.t.as(user).call(apiKeyRoutes.list, {});
    expect(keys.json()).toMatchObject({ count: 1, results: [{ name: "ci", uuid: stored.api_key_uuid }] });
    expect((await databaseDump(server.t.db)).includes(stored.api_key)).toBe(false);
  });
});
