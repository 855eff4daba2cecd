import { type CliConfig, DEFAULT_PROFILE, type Profile, readConfig, writeConfig } from "./config-file";
import type { CliEnv } from "./env";
import { UsageError } from "./output";

const PROFILE_NAME = /^[\w.-]{1,64}$/;

export function checkProfileName(name: string): string {
  if (!PROFILE_NAME.test(name))
    throw new UsageError(
      `'${name}' is not a profile name: use letters, digits, '.', '_' or '-' (at most 64).`,
      "invalid_profile",
    );
  return name;
}

export interface ChosenProfile {
  name: string;
  /** Named by --profile or ALLOT_PROFILE: it must exist (except for `allot login`, which makes it). */
  explicit: boolean;
  profile: Profile | undefined;
}

/** --profile, then ALLOT_PROFILE, then the current profile (`allot profiles use`), then "default". */
export function chooseProfile(env: CliEnv, flag: string | undefined, config: CliConfig): ChosenProfile {
  const explicit = flag ?? env.profile;
  const name = checkProfileName(explicit ?? config.current_profile ?? DEFAULT_PROFILE);
  return { name, explicit: explicit !== undefined, profile: config.profiles[name] };
}

/** The profile a command names, which must exist; the message lists the ones that do. */
export function requireProfile(config: CliConfig, name: string): Profile {
  const profile = config.profiles[name];
  if (profile) return profile;
  throw new UsageError(
    `No profile '${name}' (profiles: ${profileList(config)}): run \`allot login --profile ${name}\` to create it, or \`allot profiles\` to list them.`,
    "unknown_profile",
  );
}

function profileList(config: CliConfig): string {
  const names = Object.keys(config.profiles).sort();
  return names.length > 0 ? names.join(", ") : "none yet";
}

export type CredentialKind = "api_key" | "session";

export function credentialKind(profile: Profile | undefined): CredentialKind | null {
  if (profile?.api_key) return "api_key";
  if (profile?.access_token) return "session";
  return null;
}

/** The profile with its URL kept and every credential gone (`allot logout`). */
export function withoutCredentials(profile: Profile): Profile {
  return profile.base_url === undefined ? {} : { base_url: profile.base_url };
}

/** Reads, changes and writes back the config file (the import profiles and other profiles kept). */
export async function changeConfig(
  path: string,
  change: (config: CliConfig) => CliConfig | Promise<CliConfig>,
): Promise<CliConfig> {
  const changed = await change(await readConfig(path));
  await writeConfig(path, changed);
  return changed;
}
