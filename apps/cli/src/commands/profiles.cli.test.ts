import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { useTestApp } from "@allot/api/test/testing/test-app";
import { testEngines } from "@allot/db/testing/test-databases";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { createUser } from "@allot/domain/users/create-user";
import { createClient } from "@allot/sdk/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../test/testing/run-cli";

const PASSWORD = "correct horse battery staple";
const UNREACHABLE = "http://127.0.0.1:9";
// Each test runs the real CLI many times (about a second each to start, more on a busy machine).
const SLOW = { timeout: 400_000 };
let counter = 0;

describe.each(testEngines())(
  "allot profiles, API-key logins and precedence against a running API (%s)",
  (engine) => {
    const t = useTestApp(engine);
    let baseUrl: string;
    let folder: string;

    beforeAll(async () => {
      baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
      folder = await mkdtemp(join(tmpdir(), "allot-cli-profiles-"));
    });
    afterAll(() => rm(folder, { recursive: true, force: true }));

    async function person() {
      counter += 1;
      const email = `prof${counter}-${Date.now()}@example.com`;
      await createUser(internalContext(t.db, "cli"), {
        email,
        password: PASSWORD,
        name: `Person ${counter}`,
      });
      return { email, username: email };
    }

    function configFile() {
      const configPath = join(folder, `config-${++counter}`, "config.json");
      const allot = (args: string[], options: { env?: Record<string, string>; stdin?: string } = {}) =>
        runCli(args, { env: { ALLOT_CONFIG: configPath, ...options.env }, stdin: options.stdin });
      const read = async () => JSON.parse(await readFile(configPath, "utf8"));
      return { configPath, allot, read };
    }

    it(
      "login --create-api-key stores a key instead of tokens; whoami needs no password; logout forgets it",
      SLOW,
      async () => {
        const { email, username } = await person();
        const { allot, read } = configFile();
        const login = await allot(
          ["login", "--email", email, "--create-api-key", "--profile", "ci", "--url", baseUrl, "--json"],
          { stdin: `${PASSWORD}\n` },
        );
        expect(login.stderr).toBe("");
        expect(login.code).toBe(0);
        const keyName = `allot CLI on ${hostname()}`.slice(0, 100);
        expect(login.json()).toEqual({
          profile: "ci",
          base_url: baseUrl,
          username,
          email,
          credential: "api_key",
          api_key_name: keyName,
          current: true,
        });
        const stored = (await read()).profiles.ci;
        expect(stored).toEqual({
          base_url: baseUrl,
          username,
          api_key: expect.any(String),
          api_key_name: keyName,
          api_key_uuid: expect.any(String),
        });
        // A real key of the user's: it authenticates alone.
        const me = await createClient({ baseUrl, auth: { apiKey: stored.api_key } }).users.getMe();
        expect(me.username).toBe(username);

        const whoami = await allot(["whoami", "--json"]);
        expect(whoami.code).toBe(0);
        expect(whoami.json()).toMatchObject({
          username,
          profile: "ci",
          base_url: baseUrl,
          credential: "api_key",
          credential_source: "profile",
        });
        const plain = await allot(["whoami"]);
        expect(plain.stdout).toContain("profile               ci\n");
        expect(plain.stdout).toContain("credential            API key (from the profile)\n");

        const logout = await allot(["logout"]);
        expect(logout.code).toBe(0);
        expect(logout.stdout).toBe(
          `Logged out of ${baseUrl} (profile 'ci'). Its API key is forgotten here but stays valid on the server: revoke it there if nothing else uses it.\n`,
        );
        expect((await read()).profiles.ci).toEqual({ base_url: baseUrl });
        const after = await allot(["whoami"]);
        expect(after.code).toBe(2);
        expect(after.stderr).toBe(
          `error: Not logged in to ${baseUrl}: run \`allot login\` or set ALLOT_API_KEY.\n`,
        );
      },
    );

    it(
      "several profiles: list, use, remove; --profile > ALLOT_PROFILE > current; flags > environment > profile",
      SLOW,
      async () => {
        const ann = await person();
        const bob = await person();
        const { allot, read } = configFile();
        const asAnn = await allot(
          [
            "login",
            "--email",
            ann.email,
            "--create-api-key",
            "ann-key",
            "--profile",
            "ann",
            "--url",
            baseUrl,
          ],
          { stdin: PASSWORD },
        );
        expect(asAnn.stdout).toBe(
          `Logged in to ${baseUrl} as ${ann.username}; saved a new API key 'ann-key' (it does not expire) as profile 'ann'.\n`,
        );
        // The first profile became the current one; a second one does not take its place.
        const asBob = await allot(
          ["login", "--email", bob.email, "--password", PASSWORD, "--profile", "bob"],
          {
            env: { ALLOT_URL: baseUrl },
          },
        );
        expect(asBob.stdout).toBe(
          `Logged in to ${baseUrl} as ${bob.username}; saved the session as profile 'bob'.\nUse it with --profile bob, or make it the default: allot profiles use bob\n`,
        );
        const annKey = (await read()).profiles.ann.api_key as string;

        const listed = await allot(["profiles", "--json"]);
        expect(listed.json()).toEqual([
          { name: "ann", current: true, base_url: baseUrl, username: ann.username, credential: "api_key" },
          { name: "bob", current: false, base_url: baseUrl, username: bob.username, credential: "session" },
        ]);

        const who = async (args: string[], env: Record<string, string> = {}) => {
          const run = await allot(["whoami", "--json", ...args], { env });
          expect(run.stderr).toBe("");
          const me = run.json<{ username: string; profile: string; credential_source: string }>();
          return [me.username, me.profile, me.credential_source];
        };
        expect(await who([])).toEqual([ann.username, "ann", "profile"]);
        expect(await who([], { ALLOT_PROFILE: "bob" })).toEqual([bob.username, "bob", "profile"]);
        expect(await who(["--profile", "ann"], { ALLOT_PROFILE: "bob" })).toEqual([
          ann.username,
          "ann",
          "profile",
        ]);
        expect(await who(["--profile", "bob"], { ALLOT_API_KEY: annKey })).toEqual([
          ann.username,
          "bob",
          "environment",
        ]);
        expect(
          await who(["--api-key", annKey], { ALLOT_PROFILE: "bob", ALLOT_API_KEY: "allot_bogus" }),
        ).toEqual([ann.username, "bob", "flag"]);
        // ALLOT_URL (or its old name) over the profile's URL: the profile's key is not sent elsewhere.
        for (const variable of ["ALLOT_URL", "ALLOT_BASE_URL"]) {
          const elsewhere = await allot(["whoami", "--json"], { env: { [variable]: UNREACHABLE } });
          expect(elsewhere.code).toBe(2);
          expect(elsewhere.errorJson()).toMatchObject({ code: "not_logged_in" });
        }
        expect(await who(["--url", baseUrl], { ALLOT_URL: UNREACHABLE })).toEqual([
          ann.username,
          "ann",
          "profile",
        ]);

        const use = await allot(["profiles", "use", "bob"]);
        expect(use.stdout).toBe("Profile 'bob' is now the current one.\n");
        expect(await who([])).toEqual([bob.username, "bob", "profile"]);
        const table = await allot(["profiles", "list"]);
        expect(table.stdout.split("\n")).toEqual([
          expect.stringMatching(/^ {3}PROFILE {2}URL +USER +CREDENTIAL$/),
          expect.stringMatching(new RegExp(`^ {3}ann {6}${baseUrl} +${ann.username} +API key$`)),
          expect.stringMatching(new RegExp(`^\\* {2}bob {6}${baseUrl} +${bob.username} +login session$`)),
          "",
        ]);

        const bobSession = (await read()).profiles.bob.access_token as string;
        const removed = await allot(["profiles", "remove", "bob", "--json"]);
        expect(removed.json()).toEqual({ removed: "bob", ended_on_server: true, current_profile: null });
        await expect(
          createClient({ baseUrl, auth: { bearer: bobSession } }).users.getMe(),
        ).rejects.toMatchObject({
          status: 401,
        });
        expect(Object.keys((await read()).profiles)).toEqual(["ann"]);
        // No current profile and no "default": a command says how to go on.
        const none = await allot(["whoami"]);
        expect(none.code).toBe(2);
        expect(none.stderr).toContain("Not logged in to http://127.0.0.1:3000");
      },
    );

    it(
      "logout --all forgets every profile's credentials; the single-login file and import mappings carry over",
      SLOW,
      async () => {
        const ann = await person();
        const bob = await person();
        const { configPath, allot, read } = configFile();
        const mapping = { map: "date=Date,amount=Amount,description=Description" };
        const session = await createClient({ baseUrl }).auth.login({ email: ann.email, password: PASSWORD });
        // The first file shape: one login at the top level, and a saved CSV mapping.
        await mkdir(dirname(configPath), { recursive: true });
        await writeFile(
          configPath,
          JSON.stringify({
            base_url: baseUrl,
            username: ann.username,
            access_token: session.access,
            refresh_token: session.refreshToken,
            import_profiles: { bank: mapping },
          }),
        );
        await allot([
          "login",
          "--email",
          bob.email,
          "--password",
          PASSWORD,
          "--profile",
          "bob",
          "--url",
          baseUrl,
        ]);
        expect(await read()).toEqual({
          current_profile: "default",
          profiles: {
            default: {
              base_url: baseUrl,
              username: ann.username,
              access_token: session.access,
              refresh_token: session.refreshToken,
            },
            bob: expect.objectContaining({ base_url: baseUrl, username: bob.username }),
          },
          import_profiles: { bank: mapping },
        });

        const logout = await allot(["logout", "--all", "--json"]);
        expect(logout.code).toBe(0);
        expect(logout.json()).toEqual({
          logged_out: [
            { profile: "default", base_url: baseUrl, credential: "session", ended_on_server: true },
            { profile: "bob", base_url: baseUrl, credential: "session", ended_on_server: true },
          ],
        });
        await expect(
          createClient({ baseUrl, auth: { bearer: session.access } }).users.getMe(),
        ).rejects.toMatchObject({ status: 401 });
        expect(await read()).toEqual({
          current_profile: "default",
          profiles: { default: { base_url: baseUrl }, bob: { base_url: baseUrl } },
          import_profiles: { bank: mapping },
        });
        const again = await allot(["logout", "--all"]);
        expect(again.stdout).toBe("Not logged in.\n");
      },
    );

    it(
      "exits 2 on usage errors with a message saying what to do, 1 when the API refuses, 0 for help",
      SLOW,
      async () => {
        const { allot } = configFile();
        const unknownOption = await allot(["whoami", "--bogus"]);
        expect(unknownOption.code).toBe(2);
        expect(unknownOption.stderr).toBe(
          "error: unknown option '--bogus'\n(run `allot whoami --help` for its options and examples)\n",
        );

        const badChoice = await allot(["completion", "powershell"]);
        expect(badChoice.code).toBe(2);
        expect(badChoice.stderr).toContain("Allowed choices are bash, zsh, fish.");

        const unknownProfile = await allot(["profiles", "use", "nope"]);
        expect(unknownProfile.code).toBe(2);
        expect(unknownProfile.stderr).toBe(
          "error: No profile 'nope' (profiles: none yet): run `allot login --profile nope` to create it, or `allot profiles` to list them.\n",
        );

        const noWho = await allot(["login", "--url", baseUrl, "--json"]);
        expect(noWho.code).toBe(2);
        expect(noWho.errorJson()).toEqual({
          detail: "Say how to log in: --email EMAIL (the password is asked for), or --api-key KEY.",
          code: "missing_credentials",
        });

        const badEnv = await allot(["whoami"], { env: { ALLOT_URL: "not a url" } });
        expect(badEnv.code).toBe(2);
        expect(badEnv.stderr).toContain("error: Invalid environment (fix or unset these variables):");
        expect(badEnv.stderr).toContain("ALLOT_URL");

        const refused = await allot(["whoami", "--json", "--url", baseUrl, "--api-key", "allot_not_a_key"]);
        expect(refused.code).toBe(1);
        expect(refused.errorJson()).toMatchObject({ code: expect.any(String), detail: expect.any(String) });
        const badKey = await allot(["login", "--api-key", "allot_not_a_key", "--url", baseUrl]);
        expect(badKey.code).toBe(1);

        const bare = await allot([]);
        expect(bare.code).toBe(2);
        const help = await allot(["profiles", "use", "--help"]);
        expect(help.code).toBe(0);
        expect(help.stdout).toContain("Examples:\n  $ allot profiles use work\n");
      },
    );

    it("allot completion bash prints a script naming the commands and their options", SLOW, async () => {
      const { allot } = configFile();
      const run = await allot(["completion", "bash"]);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("complete -o default -F _allot_completion allot");
      const topLevel = run.stdout.match(/^ {4}''\) words='([^']*)'/m)?.[1]?.split(" ");
      expect(topLevel).toEqual(
        expect.arrayContaining([
          "admin",
          "login",
          "logout",
          "whoami",
          "profiles",
          "import",
          "completion",
          "--help",
        ]),
      );
      expect(run.stdout).toContain(
        "'login') words='--email --password --create-api-key --api-key --profile --url --json",
      );
    });
  },
);
