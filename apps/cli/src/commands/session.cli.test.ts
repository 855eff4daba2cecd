import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { testConfig, useTestApp } from "@allot/api/test/testing/test-app";
import { testEngines } from "@allot/db/testing/test-databases";
import { createAccessTokens } from "@allot/domain/auth/access-tokens";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { createUser } from "@allot/domain/users/create-user";
import { createClient } from "@allot/sdk/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../test/testing/run-cli";

const PASSWORD = "correct horse battery staple";
// Each test runs the real CLI several times (about a second each to start, far more on a busy machine).
const SLOW = { timeout: 240_000 };
let counter = 0;

describe.each(testEngines())("allot login / whoami / logout against a running API (%s)", (engine) => {
  const t = useTestApp(engine);
  let baseUrl: string;
  let folder: string;

  beforeAll(async () => {
    baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
    folder = await mkdtemp(join(tmpdir(), "allot-cli-session-"));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  /** A user made the admin way on the server's database, and a config file of its own. */
  async function person() {
    counter += 1;
    const email = `Cli${counter}-${Date.now()}@Example.com`;
    await createUser(internalContext(t.db, "cli"), { email, password: PASSWORD, name: "Cleo" });
    const configPath = join(folder, `config-${counter}`, "config.json");
    return { email, username: email.toLowerCase(), configPath, env: { ALLOT_CONFIG: configPath } };
  }

  const readConfig = async (path: string) => JSON.parse(await readFile(path, "utf8"));

  it(
    "login takes the password on stdin and keeps the session owner-only; whoami shows the user",
    SLOW,
    async () => {
      const { email, username, configPath, env } = await person();
      const login = await runCli(["login", "--email", email, "--base-url", `${baseUrl}/`], {
        env,
        stdin: `${PASSWORD}\n`,
      });
      expect(login.stderr).toBe("");
      expect(login.code).toBe(0);
      expect(login.stdout).toBe(
        `Logged in to ${baseUrl} as ${username}; saved the session as profile 'default'.\n`,
      );
      expect((await stat(configPath)).mode & 0o777).toBe(0o600);
      expect(await readConfig(configPath)).toEqual({
        current_profile: "default",
        profiles: {
          default: {
            base_url: baseUrl,
            username,
            email,
            access_token: expect.any(String),
            refresh_token: expect.any(String),
          },
        },
      });

      const json = await runCli(["whoami", "--json"], { env });
      expect(json.code).toBe(0);
      expect(json.json()).toMatchObject({
        username,
        email,
        name: "Cleo",
        has_usable_password: true,
        profile: "default",
        base_url: baseUrl,
        credential: "session",
        credential_source: "profile",
      });

      const plain = await runCli(["whoami"], { env });
      expect(plain.stdout.split("\n")).toContain(`username              ${username}`);
      expect(plain.stdout).toContain("default bank account  -");
      expect(plain.stdout).toContain(`url                   ${baseUrl}\n`);
      expect(plain.stdout).toContain("credential            login session (from the profile)\n");
    },
  );

  it(
    "login --json; a wrong password is the API's 401 body on stderr and keeps the stored login",
    SLOW,
    async () => {
      const { email, username, configPath, env } = await person();
      const ok = await runCli(["login", "--email", email, "--password", PASSWORD, "--json"], {
        env: { ...env, ALLOT_BASE_URL: baseUrl },
      });
      expect(ok.code).toBe(0);
      expect(ok.json()).toEqual({
        profile: "default",
        base_url: baseUrl,
        username,
        email,
        credential: "session",
        current: true,
      });
      const stored = await readConfig(configPath);

      const wrong = await runCli(["login", "--email", email, "--password", "not it", "--json"], { env });
      expect(wrong.code).toBe(1);
      expect(wrong.stdout).toBe("");
      expect(wrong.errorJson()).toEqual({ detail: expect.any(String), code: "authentication_failed" });
      expect(await readConfig(configPath)).toEqual(stored);
    },
  );

  it(
    "whoami refreshes an access token about to expire and keeps the rotated refresh token",
    SLOW,
    async () => {
      const { email, username, configPath, env } = await person();
      const session = await createClient({ baseUrl }).auth.login({ email, password: PASSWORD });
      const claims = JSON.parse(Buffer.from(session.access.split(".")[1] as string, "base64url").toString());
      // The first file shape (one login at the top level) is still read, as the profile "default".
      // Signed 59.5 minutes ago: 30 seconds left, inside the CLI's refresh margin.
      const dying = await createAccessTokens(testConfig().jwtSecret).sign(
        { userId: Number(claims.sub), sessionId: claims.sid },
        new Date(Date.now() - 59.5 * 60_000),
      );
      const before = {
        base_url: baseUrl,
        username,
        access_token: dying,
        refresh_token: session.refreshToken,
      };
      await mkdir(dirname(configPath), { recursive: true });
      await writeFile(configPath, JSON.stringify(before));

      const run = await runCli(["whoami", "--json"], { env });
      expect(run.stderr).toBe("");
      expect(run.json()).toMatchObject({ username });
      const after = (await readConfig(configPath)).profiles.default;
      expect(after.access_token).not.toBe(dying);
      expect(after.refresh_token).not.toBe(session.refreshToken);
      expect((await stat(configPath)).mode & 0o777).toBe(0o600);

      // The old refresh token was rotated away: a login stuck with it has expired.
      await writeFile(configPath, JSON.stringify(before));
      const stale = await runCli(["whoami", "--json"], { env });
      expect(stale.code).toBe(2);
      expect(stale.errorJson()).toEqual({
        detail:
          "Your login has expired: run `allot login` again (or `allot login --create-api-key` for a key that does not expire).",
        code: "not_authenticated",
      });
    },
  );

  it("whoami with an API key from ALLOT_API_KEY or --api-key, at ALLOT_BASE_URL", SLOW, async () => {
    const { email, username, env } = await person();
    const session = await createClient({ baseUrl }).auth.login({ email, password: PASSWORD });
    const { key } = await createClient({ baseUrl, auth: { bearer: session.access } }).apiKeys.create({
      name: "cli",
    });

    const fromEnv = await runCli(["whoami", "--json"], {
      env: { ...env, ALLOT_API_KEY: key, ALLOT_BASE_URL: baseUrl },
    });
    expect(fromEnv.code).toBe(0);
    expect(fromEnv.json()).toMatchObject({ username });

    const bogus = await runCli(["whoami", "--json", "--base-url", baseUrl, "--api-key", "allot_unknown"], {
      env,
    });
    expect(bogus.code).toBe(1);
    expect(bogus.errorJson()).toMatchObject({ code: expect.any(String), detail: expect.any(String) });
  });

  it("whoami says to log in when there is no login, or it belongs to another server", SLOW, async () => {
    const { email, env } = await person();
    const none = await runCli(["whoami", "--base-url", baseUrl], { env });
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(
      `error: Not logged in to ${baseUrl}: run \`allot login\` or set ALLOT_API_KEY.\n`,
    );

    await runCli(["login", "--email", email, "--password", PASSWORD, "--base-url", baseUrl], { env });
    // The stored tokens are never sent to a server other than the one they came from.
    const elsewhere = await runCli(["whoami", "--json", "--base-url", "http://127.0.0.1:9"], { env });
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.errorJson()).toEqual({
      detail: `Not logged in to http://127.0.0.1:9 (profile 'default' is logged in to ${baseUrl} only): run \`allot login\` or set ALLOT_API_KEY.`,
      code: "not_logged_in",
    });
  });

  it("logout ends the session on the server and forgets it here", SLOW, async () => {
    const { email, configPath, env } = await person();
    await runCli(["login", "--email", email, "--password", PASSWORD, "--base-url", baseUrl], { env });
    const { access_token: access, refresh_token: refreshToken } = (await readConfig(configPath)).profiles
      .default;

    const run = await runCli(["logout", "--json"], { env });
    expect(run.code).toBe(0);
    expect(run.json()).toEqual({
      logged_out: [{ profile: "default", base_url: baseUrl, credential: "session", ended_on_server: true }],
    });
    // The profile keeps its server, so `allot login` goes back there; the tokens are gone.
    expect(await readConfig(configPath)).toEqual({
      current_profile: "default",
      profiles: { default: { base_url: baseUrl } },
    });
    await expect(createClient({ baseUrl, auth: { bearer: access } }).users.getMe()).rejects.toMatchObject({
      status: 401,
    });
    await expect(createClient({ baseUrl }).auth.refresh({ refreshToken })).rejects.toMatchObject({
      status: 401,
    });

    const again = await runCli(["logout"], { env });
    expect(again.stdout).toBe("Not logged in.\n");
  });

  it("says so when the server cannot be reached", SLOW, async () => {
    const { env } = await person();
    const run = await runCli(
      ["whoami", "--json", "--api-key", "allot_x", "--base-url", "http://127.0.0.1:9"],
      { env },
    );
    expect(run.code).toBe(1);
    expect(run.errorJson()).toMatchObject({ code: "connection_failed" });
  });
});
