import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "./config-file";
import { UsageError } from "./output";

let folder: string;
let counter = 0;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "allot-config-"));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

async function file(content: string): Promise<string> {
  const path = join(folder, `config-${++counter}.json`);
  await writeFile(path, content);
  return path;
}

const MAPPING = { map: "date=Date,amount=Amount,description=Description" };

describe("the config file", () => {
  it("is empty when missing", async () => {
    expect(await readConfig(join(folder, "missing.json"))).toEqual({ profiles: {} });
  });

  it("reads the single-login shape as the current profile 'default', import profiles kept", async () => {
    const legacy = {
      base_url: "http://127.0.0.1:1",
      username: "cleo",
      access_token: "a",
      refresh_token: "r",
    };
    const path = await file(JSON.stringify({ ...legacy, import_profiles: { chase: MAPPING } }));
    expect(await readConfig(path)).toEqual({
      current_profile: "default",
      profiles: { default: legacy },
      import_profiles: { chase: MAPPING },
    });
  });

  it("keeps a profile 'default' that exists over top-level leftovers", async () => {
    const path = await file(
      JSON.stringify({
        base_url: "http://old",
        access_token: "old",
        current_profile: "work",
        profiles: { default: { base_url: "http://new", api_key: "k" }, work: {} },
      }),
    );
    expect(await readConfig(path)).toEqual({
      current_profile: "work",
      profiles: { default: { base_url: "http://new", api_key: "k" }, work: {} },
    });
  });

  it.each([
    ["not JSON", "{"],
    ["a wrong shape", JSON.stringify({ profiles: { a: { api_key: 1 } } })],
  ])("refuses %s as a usage error that says what to do", async (_name, content) => {
    const path = await file(content);
    const error = await readConfig(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe(
      `${path} is not a valid allot config file: fix it, or delete it and run \`allot login\` again.`,
    );
  });
});
