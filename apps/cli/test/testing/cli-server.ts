import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type TestUser, useTestApp } from "@allot/api/test/testing/test-app";
import type { DatabaseEngine } from "@allot/db/create-database";
import { createBank } from "@allot/domain/banks/create-bank";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { type Client, createClient } from "@allot/sdk/client";
import { afterAll, beforeAll, expect } from "vitest";
import { type CliRun, runCli } from "./run-cli";

let counter = 0;

export interface CliUser {
  user: TestUser;
  /** An SDK client of the same user (API key, or the login's bearer) to set data up with. */
  client: Client;
  /**
   * Runs `allot …` as this user, against the test server, with a config file of its own; `env`
   * adds to or replaces its environment (another base URL, a locale).
   */
  allot(args: string[], options?: { cwd?: string; env?: Record<string, string> }): Promise<CliRun>;
}

/**
 * A real API server listening on a port for CLI tests, on the given engine, and users to run the
 * CLI as: by API key (ALLOT_API_KEY), or logged in through `allot login` for the endpoints that
 * refuse API keys.
 */
export function useCliServer(engine: DatabaseEngine) {
  const t = useTestApp(engine);
  let baseUrl: string;
  let folder: string;

  beforeAll(async () => {
    baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
    folder = await mkdtemp(join(tmpdir(), "allot-cli-"));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  const configPath = () => {
    counter += 1;
    return join(folder, `config-${counter}.json`);
  };

  return {
    t,
    get baseUrl() {
      return baseUrl;
    },
    /** A bank with a name no other test uses. */
    async bank(name = "Bank") {
      counter += 1;
      return createBank(internalContext(t.db, "cli"), {
        name: `${name} ${counter} ${Date.now()}`,
        currency: "USD",
      });
    },
    async apiKeyUser(): Promise<CliUser> {
      const user = await t.user();
      const key = (await t.apiKey(user)).replace(/^Api-Key /, "");
      const env = { ALLOT_API_KEY: key, ALLOT_BASE_URL: baseUrl, ALLOT_CONFIG: configPath() };
      return {
        user,
        client: createClient({ baseUrl, auth: { apiKey: key } }),
        allot: (args, options) => runCli(args, { ...options, env: { ...env, ...options?.env } }),
      };
    },
    async loggedInUser(): Promise<CliUser> {
      const user = await t.user();
      const env = { ALLOT_BASE_URL: baseUrl, ALLOT_CONFIG: configPath() };
      const login = await runCli(["login", "--email", user.email, "--password", user.password], { env });
      expect(login.stderr).toBe("");
      expect(login.code).toBe(0);
      const bearer = user.bearer.replace(/^Bearer /, "");
      return {
        user,
        client: createClient({ baseUrl, auth: { bearer } }),
        allot: (args, options) => runCli(args, { ...options, env: { ...env, ...options?.env } }),
      };
    },
  };
}
