import { hostname } from "node:os";
import { type Command, Option } from "commander";
import { createApiClient, endStoredSession, normalizeBaseUrl, urlFlag } from "../api-session";
import { addExamples } from "../cli-conventions";
import { type Profile, readConfig } from "../config-file";
import {
  changeConfig,
  chooseProfile,
  credentialKind,
  requireProfile,
  withoutCredentials,
} from "../config-profiles";
import { type CliEnv, DEFAULT_BASE_URL } from "../env";
import { shown } from "../format/terminal-text";
import { printJson, reportError, UsageError } from "../output";
import { readPassword } from "../read-password";

interface LoginOptions {
  email?: string;
  password?: string;
  apiKey?: string;
  createApiKey?: string | true;
  profile?: string;
  url?: string;
  baseUrl?: string;
  json?: boolean;
}

/** `allot login`: log in, and keep the credentials in a profile of the config file. */
export function registerLoginCommand(login: Command, env: CliEnv): void {
  login
    .option("--email <email>", "your email (the password is asked for, or read from stdin)")
    .option("--password <password>", "password (omit it to type it, or to pipe it on stdin)")
    .option(
      "--create-api-key [name]",
      "create an API key and store it instead of the session: it does not expire, for scripts (default name: allot CLI on HOST)",
    )
    .option("--api-key <key>", "store an existing API key (checked with the server) instead of logging in")
    .option("--profile <name>", "profile to store it in (default: ALLOT_PROFILE, else the current one)")
    .option("--url <url>", `API server (default: ALLOT_URL, the profile's, or ${DEFAULT_BASE_URL})`)
    .addOption(new Option("--base-url <url>", "same as --url").hideHelp())
    .option("--json", "print JSON for scripts")
    .action(async (options: LoginOptions) => {
      try {
        await logIn(env, options);
      } catch (error) {
        reportError(error, Boolean(options.json));
      }
    });
  addExamples(login, [
    "allot login --email me@example.com",
    "allot login --email me@example.com --create-api-key --profile ci --url https://allot.example.com",
    "printf '%s\\n' \"$PASSWORD\" | allot login --email me@example.com --json",
    'allot login --api-key "$ALLOT_KEY" --profile work',
  ]);
}

/** `allot logout`: end a profile's session and forget its credentials. */
export function registerLogoutCommand(logout: Command, env: CliEnv): void {
  logout
    .option("--profile <name>", "profile to log out of (default: ALLOT_PROFILE, else the current one)")
    .option("--all", "log out of every profile")
    .option("--json", "print JSON for scripts")
    .action(async (options: { profile?: string; all?: boolean; json?: boolean }) => {
      try {
        await logOut(env, options);
      } catch (error) {
        reportError(error, Boolean(options.json));
      }
    });
  addExamples(logout, ["allot logout", "allot logout --profile work", "allot logout --all --json"]);
}

async function logIn(env: CliEnv, options: LoginOptions): Promise<void> {
  if (options.email === undefined && options.apiKey === undefined)
    throw new UsageError(
      "Say how to log in: --email EMAIL (the password is asked for), or --api-key KEY.",
      "missing_credentials",
    );
  if (options.email !== undefined && options.apiKey !== undefined)
    throw new UsageError("Give --email or --api-key, not both.", "invalid_arguments");
  if (options.apiKey !== undefined && options.createApiKey !== undefined)
    throw new UsageError(
      "--create-api-key logs in with --email to make the key; with --api-key, the key is already there.",
      "invalid_arguments",
    );
  const config = await readConfig(env.configPath);
  const { name, profile: previous } = chooseProfile(env, options.profile, config);
  const baseUrl = normalizeBaseUrl(urlFlag(options) ?? env.baseUrl ?? previous?.base_url ?? DEFAULT_BASE_URL);

  const { stored, email } =
    options.apiKey !== undefined
      ? await checkApiKey(env, baseUrl, options.apiKey)
      : await passwordLogin(env, baseUrl, options.email as string, options);
  // The profile's earlier session is replaced: end it rather than leave it open on the server.
  if (previous?.refresh_token) await endStoredSession(env, previous);

  const saved = await changeConfig(env.configPath, (current) => {
    const profiles = { ...current.profiles, [name]: stored };
    const keepCurrent = current.current_profile !== undefined && profiles[current.current_profile];
    return { ...current, profiles, current_profile: keepCurrent ? current.current_profile : name };
  });
  const isCurrent = saved.current_profile === name;
  const credential = credentialKind(stored);
  if (options.json) {
    printJson({
      profile: name,
      base_url: baseUrl,
      username: stored.username,
      email,
      credential,
      ...(stored.api_key_name ? { api_key_name: stored.api_key_name } : {}),
      current: isCurrent,
    });
    return;
  }
  const what =
    credential === "session"
      ? "the session"
      : stored.api_key_name
        ? `a new API key '${stored.api_key_name}' (it does not expire)`
        : "the API key";
  process.stdout.write(
    shown`Logged in to ${baseUrl} as ${stored.username}; saved ${what} as profile '${name}'.\n`,
  );
  if (!isCurrent)
    process.stdout.write(
      shown`Use it with --profile ${name}, or make it the default: allot profiles use ${name}\n`,
    );
}

async function checkApiKey(
  env: CliEnv,
  baseUrl: string,
  key: string,
): Promise<{ stored: Profile; email: string }> {
  const me = await (await createApiClient(env, { baseUrl, auth: { apiKey: key } })).users.getMe();
  return { stored: { base_url: baseUrl, username: me.username, api_key: key }, email: me.email };
}

async function passwordLogin(
  env: CliEnv,
  baseUrl: string,
  email: string,
  options: LoginOptions,
): Promise<{ stored: Profile; email: string }> {
  const password = options.password ?? (await readPassword());
  const anonymous = await createApiClient(env, { baseUrl });
  const session = await anonymous.auth.login({ email, password });
  const client = await createApiClient(env, { baseUrl, auth: { bearer: session.access } }, options);
  const me = await client.users.getMe();
  if (options.createApiKey === undefined) {
    const stored = {
      base_url: baseUrl,
      username: me.username,
      // For the `allot login --email …` suggested when the session ends (a password reset).
      email: me.email,
      access_token: session.access,
      refresh_token: session.refreshToken,
    };
    return { stored, email: me.email };
  }
  const name =
    typeof options.createApiKey === "string"
      ? options.createApiKey
      : `allot CLI on ${hostname()}`.slice(0, 100);
  const created = await client.apiKeys.create({ name });
  // Only the key is kept, so the password session has no further use: end it on the server.
  await anonymous.auth.logout({ refreshToken: session.refreshToken }).catch(() => undefined);
  const stored = {
    base_url: baseUrl,
    username: me.username,
    api_key: created.key,
    api_key_name: created.name,
    api_key_uuid: created.uuid,
  };
  return { stored, email: me.email };
}

interface LoggedOut {
  profile: string;
  base_url: string | null;
  credential: "api_key" | "session";
  ended_on_server: boolean;
}

async function logOut(
  env: CliEnv,
  options: { profile?: string; all?: boolean; json?: boolean },
): Promise<void> {
  if (options.all && options.profile !== undefined)
    throw new UsageError("Give --profile NAME or --all, not both.", "invalid_arguments");
  const config = await readConfig(env.configPath);
  let names: string[];
  if (options.all) names = Object.keys(config.profiles);
  else {
    const chosen = chooseProfile(env, options.profile, config);
    if (chosen.explicit) requireProfile(config, chosen.name);
    names = [chosen.name];
  }
  const done: LoggedOut[] = [];
  for (const name of names) {
    const profile = config.profiles[name];
    const credential = credentialKind(profile);
    if (!profile || !credential) continue;
    done.push({
      profile: name,
      base_url: profile.base_url ?? null,
      credential,
      ended_on_server: await endStoredSession(env, profile),
    });
  }
  if (done.length > 0)
    await changeConfig(env.configPath, (current) => {
      const profiles = { ...current.profiles };
      for (const { profile } of done) {
        const stored = profiles[profile];
        if (stored) profiles[profile] = withoutCredentials(stored);
      }
      return { ...current, profiles };
    });

  if (options.json) {
    printJson({ logged_out: done });
    return;
  }
  if (done.length === 0) process.stdout.write("Not logged in.\n");
  for (const { profile, base_url, credential, ended_on_server } of done) {
    const note =
      credential === "api_key"
        ? " Its API key is forgotten here but stays valid on the server: revoke it there if nothing else uses it."
        : ended_on_server
          ? " The session was ended on the server."
          : "";
    process.stdout.write(shown`Logged out of ${base_url} (profile '${profile}').${note}\n`);
  }
}
