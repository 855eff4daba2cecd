import { type ImportProfile, readConfig, writeConfig } from "../config-file";
import { UsageError } from "../output";
import { parseColumnMap } from "./column-map";
import type { CsvOptions } from "./csv-statement";
import { checkDateFormat, DEFAULT_DATE_FORMAT } from "./parse-date";

/** The CSV options as typed on the command line (all text, all optional). */
export interface CsvFlags {
  map?: string;
  dateFormat?: string;
  decimal?: string;
  delimiter?: string;
  skipLines?: string;
  /** --mapping: a saved mapping profile. */
  mapping?: string;
}

const PROFILE_NAME = /^[\w.-]{1,64}$/;

export function checkProfileName(name: string): string {
  if (!PROFILE_NAME.test(name))
    throw new UsageError(
      `'${name}' is not a mapping name: letters, digits, '.', '_', '-'`,
      "invalid_mapping",
    );
  return name;
}

/**
 * The profile a command runs with: the saved one named by --mapping, with any option given on the
 * command line taking its place. Checked here, before a file is read.
 */
export async function resolveProfile(configPath: string, flags: CsvFlags): Promise<ImportProfile> {
  let saved: ImportProfile | undefined;
  if (flags.mapping !== undefined) {
    const profiles = (await readConfig(configPath)).import_profiles ?? {};
    saved = profiles[flags.mapping];
    if (!saved) {
      const names = Object.keys(profiles).sort();
      throw new UsageError(
        `No saved mapping '${flags.mapping}' (saved: ${names.length > 0 ? names.join(", ") : "none"}): save one with --map … --save-mapping NAME.`,
        "unknown_mapping",
      );
    }
  }
  const map = flags.map ?? saved?.map;
  if (map === undefined)
    throw new UsageError(
      "Say which columns hold what: --map date=…,amount=…,description=… (or --mapping NAME).",
      "invalid_map",
    );
  const profile: ImportProfile = { ...saved, map };
  if (flags.dateFormat !== undefined) profile.date_format = flags.dateFormat;
  if (flags.decimal !== undefined) {
    if (flags.decimal !== "." && flags.decimal !== ",")
      throw new UsageError(`--decimal must be '.' or ',', not '${flags.decimal}'`, "invalid_decimal");
    profile.decimal = flags.decimal;
  }
  if (flags.delimiter !== undefined) {
    const delimiter = flags.delimiter.toLowerCase() === "tab" ? "\t" : flags.delimiter;
    if ([...delimiter].length !== 1 || delimiter === '"' || delimiter === "\n")
      throw new UsageError(
        `--delimiter must be one character (or 'tab'), not '${flags.delimiter}'`,
        "invalid_delimiter",
      );
    profile.delimiter = delimiter;
  }
  if (flags.skipLines !== undefined) {
    if (!/^\d{1,6}$/.test(flags.skipLines))
      throw new UsageError(
        `--skip-lines must be a whole number, not '${flags.skipLines}'`,
        "invalid_skip_lines",
      );
    profile.skip_lines = Number(flags.skipLines);
  }
  csvOptionsOf(profile);
  return profile;
}

/** What the CSV reader takes, from a profile. Throws a UsageError for a bad map or date format. */
export function csvOptionsOf(profile: ImportProfile): CsvOptions {
  return {
    map: parseColumnMap(profile.map),
    dateFormat: checkDateFormat(profile.date_format ?? DEFAULT_DATE_FORMAT),
    decimal: profile.decimal ?? ".",
    ...(profile.delimiter === undefined ? {} : { delimiter: profile.delimiter }),
    skipLines: profile.skip_lines ?? 0,
  };
}

/** Saves (or replaces) a profile in the config file, keeping the login and the other profiles. */
export async function saveProfile(configPath: string, name: string, profile: ImportProfile): Promise<void> {
  const config = await readConfig(configPath);
  await writeConfig(configPath, {
    ...config,
    import_profiles: { ...config.import_profiles, [name]: profile },
  });
}
