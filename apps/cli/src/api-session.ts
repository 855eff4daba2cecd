import { ApiError } from "@allot/sdk/api-error";
import type { Client, ClientOptions } from "@allot/sdk/client";
import type { Command } from "commander";
import { type CliConfig, readConfig, writeConfig } from "./config-file";
import { type CliEnv, DEFAULT_BASE_URL } from "./env";
import { UsageError } from "./output";

export interface ApiOptions {
  baseUrl?: string;
  apiKey?: string;
}

/** Refresh a stored access token this long before it expires, so a command never starts on a dying one. */
const REFRESH_MARGIN_SECONDS = 60;

/** The SDK loads lazily (about a second): `admin` commands never need it. */
export async function createApiClient(options: ClientOptions): Promise<Client> {
  const { createClient } = await import("@allot/sdk/client");
  return createClient(options);
}

export function addApiOptions(command: Command): Command {
  return command
    .option("--base-url <url>", `API server (default: ALLOT_BASE_URL, the login's, or ${DEFAULT_BASE_URL})`)
    .option(
      "--api-key <key>",
      "authenticate with an API key (default: ALLOT_API_KEY, else the stored login)",
    );
}

/** The server a command talks to: --base-url, ALLOT_BASE_URL, the stored login's, the default. */
export function resolveBaseUrl(env: CliEnv, options: ApiOptions, config: CliConfig): string {
  return normalizeBaseUrl(options.baseUrl ?? env.baseUrl ?? config.base_url ?? DEFAULT_BASE_URL);
}

export function normalizeBaseUrl(url: string): string {
  if (!URL.canParse(url)) throw new UsageError(`Not a URL: '${url}'.`, "invalid_base_url");
  return url.replace(/\/+$/, "");
}

/**
 * A client authenticated by --api-key, ALLOT_API_KEY, or the stored login (refreshed first when
 * its access token is about to expire). A stored login is only ever sent to the server it came from.
 */
export async function openApiClient(env: CliEnv, options: ApiOptions): Promise<Client> {
  const config = await readConfig(env.configPath);
  const baseUrl = resolveBaseUrl(env, options, config);
  const apiKey = options.apiKey ?? env.apiKey;
  if (apiKey) return createApiClient({ baseUrl, auth: { apiKey } });

  if (!config.access_token || config.base_url !== baseUrl) {
    throw new UsageError(
      `Not logged in to ${baseUrl}: run \`allot login --email …\` or set ALLOT_API_KEY.`,
      "not_logged_in",
    );
  }
  if (secondsLeft(config.access_token) > REFRESH_MARGIN_SECONDS || !config.refresh_token) {
    return createApiClient({ baseUrl, auth: { bearer: config.access_token } });
  }
  const session = await (await createApiClient({ baseUrl })).auth
    .refresh({ refreshToken: config.refresh_token })
    .catch((error: unknown) => {
      // Refused (not unreachable, not throttled): the session is over.
      if (error instanceof ApiError && error.status < 500 && error.status !== 429) {
        throw new UsageError("Your login has expired: run `allot login` again.", "not_authenticated");
      }
      throw error;
    });
  await writeConfig(env.configPath, {
    ...config,
    access_token: session.access,
    refresh_token: session.refreshToken,
  });
  return createApiClient({ baseUrl, auth: { bearer: session.access } });
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
