import { ApiError } from "@allot/sdk/api-error";
import type { Client, ClientOptions } from "@allot/sdk/client";
import { type Command, Option } from "commander";
import { type CliConfig, DEFAULT_PROFILE, type Profile, readConfig } from "./config-file";
import { changeConfig, chooseProfile, requireProfile } from "./config-profiles";
import { type CliEnv, DEFAULT_BASE_URL } from "./env";
import { shown } from "./format/terminal-text";
import { UsageError } from "./output";
import { retryNoticeText } from "./retry-notice";
import { noteSessionInUse } from "./session-in-use";
import { cliWriteJournal } from "./write-journal";

export interface ApiOptions {
  /** --json, on commands that have it: a resumed write is then not announced on stderr. */
  json?: boolean;
  profile?: string;
  url?: string;
  /** The first name of --url, still accepted. */
  baseUrl?: string;
  apiKey?: string;
}

/** Refresh a stored access token this long before it expires, so a command never starts on a dying one. */
const REFRESH_MARGIN_SECONDS = 60;

/**
 * The SDK loads lazily (about a second): `admin` commands never need it. Every write of the client
 * goes through the CLI's write journal, so a command cut off before its answer can be run again.
 * A wait before a retry (throttled, a write still running) is announced on stderr, once a wait —
 * not with --json, where stderr holds only the JSON of an error.
 */
export async function createApiClient(
  env: CliEnv,
  options: ClientOptions,
  output: Pick<ApiOptions, "json"> = {},
): Promise<Client> {
  const { createClient } = await import("@allot/sdk/client");
  return createClient({
    ...options,
    writeJournal: cliWriteJournal(env.writeJournalPath, output),
    onRetry: (notice) => {
      const text = output.json ? null : retryNoticeText(notice);
      if (text) process.stderr.write(shown`${text}\n`);
    },
  });
}

/** --profile, --url and --api-key: what every command that talks to the API accepts. */
export function addApiOptions(command: Command): Command {
  return command
    .option(
      "--profile <name>",
      "profile to use (default: ALLOT_PROFILE, else the current one; see `allot profiles`)",
    )
    .option("--url <url>", `API server (default: ALLOT_URL, the profile's, or ${DEFAULT_BASE_URL})`)
    .addOption(new Option("--base-url <url>", "same as --url").hideHelp())
    .option("--api-key <key>", "authenticate with an API key (default: ALLOT_API_KEY, else the profile's)");
}

/** --url (or its old name --base-url). */
export function urlFlag(options: Pick<ApiOptions, "url" | "baseUrl">): string | undefined {
  if (options.url !== undefined && options.baseUrl !== undefined && options.url !== options.baseUrl)
    throw new UsageError("--url and --base-url name different servers: give only --url.", "invalid_base_url");
  return options.url ?? options.baseUrl;
}

export function normalizeBaseUrl(url: string): string {
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
    throw new UsageError(
      `Not an http(s) URL: '${url}' (e.g. --url https://allot.example.com).`,
      "invalid_base_url",
    );
  return url.replace(/\/+$/, "");
}

type CredentialSource = "flag" | "environment" | "profile";

export type Credential =
  | { kind: "api_key"; source: CredentialSource; key: string }
  | { kind: "session"; source: "profile"; access: string; refresh: string | null };

/** Where a command goes and as whom, with each value from the first of: flag, environment, profile, default. */
export interface ApiTarget {
  profileName: string;
  profile: Profile | undefined;
  baseUrl: string;
  credential: Credential | null;
}

export function resolveApiTarget(env: CliEnv, options: ApiOptions, config: CliConfig): ApiTarget {
  const chosen = chooseProfile(env, options.profile, config);
  if (chosen.explicit) requireProfile(config, chosen.name);
  const { profile } = chosen;
  const baseUrl = normalizeBaseUrl(urlFlag(options) ?? env.baseUrl ?? profile?.base_url ?? DEFAULT_BASE_URL);
  let credential: Credential | null = null;
  if (options.apiKey) credential = { kind: "api_key", source: "flag", key: options.apiKey };
  else if (env.apiKey) credential = { kind: "api_key", source: "environment", key: env.apiKey };
  // A profile's key or tokens are only ever sent to the server they came from.
  else if (profile && profile.base_url === baseUrl) {
    if (profile.api_key) credential = { kind: "api_key", source: "profile", key: profile.api_key };
    else if (profile.access_token)
      credential = {
        kind: "session",
        source: "profile",
        access: profile.access_token,
        refresh: profile.refresh_token ?? null,
      };
  }
  return { profileName: chosen.name, profile, baseUrl, credential };
}

/** A client for the target, or exit 2 with what to run when there is no credential for its server. */
export async function openApiSession(
  env: CliEnv,
  options: ApiOptions,
): Promise<{ client: Client; target: ApiTarget }> {
  const target = resolveApiTarget(env, options, await readConfig(env.configPath));
  const { baseUrl, credential, profileName, profile } = target;
  if (!credential) {
    const elsewhere =
      profile?.base_url && profile.base_url !== baseUrl && (profile.api_key || profile.access_token)
        ? ` (profile '${profileName}' is logged in to ${profile.base_url} only)`
        : "";
    throw new UsageError(
      `Not logged in to ${baseUrl}${elsewhere}: run \`allot login\` or set ALLOT_API_KEY.`,
      "not_logged_in",
    );
  }
  if (credential.kind === "api_key")
    return {
      client: await createApiClient(env, { baseUrl, auth: { apiKey: credential.key } }, options),
      target,
    };
  noteSessionInUse(profileName, profile?.email);
  const access = await freshAccessToken(env, profileName, baseUrl, credential);
  return { client: await createApiClient(env, { baseUrl, auth: { bearer: access } }, options), target };
}

/** A client authenticated by --api-key, ALLOT_API_KEY, or the profile's key or login. */
export async function openApiClient(env: CliEnv, options: ApiOptions): Promise<Client> {
  return (await openApiSession(env, options)).client;
}

/** The stored access token, refreshed (and the rotated tokens stored) when it is about to expire. */
async function freshAccessToken(
  env: CliEnv,
  profileName: string,
  baseUrl: string,
  session: Extract<Credential, { kind: "session" }>,
): Promise<string> {
  if (secondsLeft(session.access) > REFRESH_MARGIN_SECONDS || !session.refresh) return session.access;
  const refreshed = await (await createApiClient(env, { baseUrl })).auth
    .refresh({ refreshToken: session.refresh })
    .catch((error: unknown) => {
      // Refused (not unreachable, not throttled): the session is over.
      if (error instanceof ApiError && error.status < 500 && error.status !== 429) {
        const flag = profileName === DEFAULT_PROFILE ? "" : ` --profile ${profileName}`;
        throw new UsageError(
          `Your login has expired: run \`allot login${flag}\` again (or \`allot login --create-api-key\` for a key that does not expire).`,
          "not_authenticated",
        );
      }
      throw error;
    });
  await changeConfig(env.configPath, (config) => ({
    ...config,
    profiles: {
      ...config.profiles,
      [profileName]: {
        ...config.profiles[profileName],
        access_token: refreshed.access,
        refresh_token: refreshed.refreshToken,
      },
    },
  }));
  return refreshed.access;
}

/** Seconds until a JWT's `exp` (read, not verified: the server verifies); Infinity when unreadable. */
function secondsLeft(token: string): number {
  try {
    const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8"));
    return typeof payload.exp === "number" ? payload.exp - Date.now() / 1000 : Number.POSITIVE_INFINITY;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/**
 * Ends a profile's login session on its server (its access tokens stop at once). Forgetting the
 * tokens locally matters most, so a server that cannot be reached is only a warning.
 */
export async function endStoredSession(env: CliEnv, profile: Profile): Promise<boolean> {
  if (!profile.base_url || !profile.refresh_token) return false;
  const client = await createApiClient(env, { baseUrl: profile.base_url });
  return client.auth.logout({ refreshToken: profile.refresh_token }).then(
    () => true,
    (error: Error) => {
      process.stderr.write(
        shown`warning: could not end the session on ${profile.base_url}: ${error.message}\n`,
      );
      return false;
    },
  );
}
