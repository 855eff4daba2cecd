import { chmod, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod";
import { UsageError } from "./output";

/** How `allot import csv` reads one bank's export, saved with --save-mapping. */
const ImportProfileSchema = z.object({
  map: z.string(),
  date_format: z.string().optional(),
  decimal: z.enum([".", ","]).optional(),
  delimiter: z.string().optional(),
  skip_lines: z.number().int().nonnegative().optional(),
});

export type ImportProfile = z.infer<typeof ImportProfileSchema>;

/** One server and how to authenticate there: an API key, or a login's tokens. */
const ProfileSchema = z.object({
  base_url: z.string().optional(),
  username: z.string().optional(),
  /** The login's email, for the `allot login --email …` a message suggests. */
  email: z.string().optional(),
  api_key: z.string().optional(),
  api_key_name: z.string().optional(),
  api_key_uuid: z.string().optional(),
  access_token: z.string().optional(),
  refresh_token: z.string().nullable().optional(),
});

export type Profile = z.infer<typeof ProfileSchema>;

const FileSchema = z.object({
  current_profile: z.string().optional(),
  profiles: z.record(z.string(), ProfileSchema).optional(),
  import_profiles: z.record(z.string(), ImportProfileSchema).optional(),
  // The first file shape held one login at the top level; it is read as the profile "default".
  base_url: z.string().optional(),
  username: z.string().optional(),
  access_token: z.string().optional(),
  refresh_token: z.string().nullable().optional(),
});

/** The profile used when neither --profile, ALLOT_PROFILE nor `allot profiles use` chose one. */
export const DEFAULT_PROFILE = "default";

/** The config file: named profiles, the current one, and the CSV mapping profiles of `allot import`. */
export interface CliConfig {
  current_profile?: string;
  profiles: Record<string, Profile>;
  import_profiles?: Record<string, ImportProfile>;
}

export async function readConfig(path: string): Promise<CliConfig> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { profiles: {} };
    throw error;
  }
  const parsed = FileSchema.safeParse(safeJson(text));
  if (!parsed.success)
    throw new UsageError(
      `${path} is not a valid allot config file: fix it, or delete it and run \`allot login\` again.`,
      "invalid_config",
    );
  return migrate(parsed.data);
}

/** A single-login file becomes the profile "default"; it is written in the new shape on the next change. */
function migrate(file: z.infer<typeof FileSchema>): CliConfig {
  const { base_url, username, access_token, refresh_token, ...rest } = file;
  const config: CliConfig = { ...rest, profiles: { ...rest.profiles } };
  const legacy = Object.fromEntries(
    Object.entries({ base_url, username, access_token, refresh_token }).filter(([, v]) => v !== undefined),
  ) as Profile;
  if (Object.keys(legacy).length > 0 && !config.profiles[DEFAULT_PROFILE]) {
    config.profiles[DEFAULT_PROFILE] = legacy;
    config.current_profile ??= DEFAULT_PROFILE;
  }
  return config;
}

/** Written whole, owner-only (it holds keys and tokens), through a rename so a crash never leaves half a file. */
export async function writeConfig(path: string, config: CliConfig): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, path);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
