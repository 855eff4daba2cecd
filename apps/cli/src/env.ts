import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { z } from "zod";
import { UsageError } from "./output";

/** The server's address when neither --url, ALLOT_URL nor the profile says otherwise. */
export const DEFAULT_BASE_URL = "http://127.0.0.1:3000";

// An empty variable (`DATABASE_URL= pnpm cli …`) counts as unset.
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === "" ? undefined : v), schema.optional());

// The only place process.env is read for the CLI.
const EnvSchema = z.object({
  DATABASE_URL: optional(z.url()),
  DATA_DIR: optional(z.string()),
  /** Set by pnpm to where `pnpm cli` was typed; the script itself runs in apps/cli. */
  INIT_CWD: optional(z.string()),
  ALLOT_CONFIG: optional(z.string()),
  XDG_CONFIG_HOME: optional(z.string()),
  ALLOT_URL: optional(z.url()),
  /** The first name of ALLOT_URL, still read. */
  ALLOT_BASE_URL: optional(z.url()),
  ALLOT_API_KEY: optional(z.string()),
  ALLOT_PROFILE: optional(z.string()),
  // The server's: where `allot admin mail` finds the outbox. Any text: the value is only compared,
  // so a server setting the CLI does not know never breaks another command.
  MAIL_TRANSPORT: optional(z.string()),
  MAIL_DIR: optional(z.string()),
});

export interface CliEnv {
  /** What admin commands open: the server's PostgreSQL, or the embedded database folder. */
  database: { url: string } | { dataDir: string };
  /** Where `allot login` keeps the profiles (URL, API key or tokens). */
  configPath: string;
  /** The keys of writes sent and not answered yet, beside the config file (see write-journal.ts). */
  writeJournalPath: string;
  /** ALLOT_URL (or ALLOT_BASE_URL): above the profile's URL, below --url. */
  baseUrl: string | undefined;
  apiKey: string | undefined;
  /** ALLOT_PROFILE: above the current profile, below --profile. */
  profile: string | undefined;
  /** Where the user typed the command: relative file arguments mean paths from here. */
  workingDirectory: string;
  /**
   * The server's `file` outbox, as the server finds it: MAIL_DIR, else DATA_DIR/mail; `transport`
   * is MAIL_TRANSPORT as set (undefined: the default, `file`).
   */
  mail: { directory: string; transport: string | undefined };
}

/**
 * What colour on stdout depends on (FORCE_COLOR, NO_COLOR, TERM, COLORTERM, CI…), as it is: tty's
 * hasColors() reads its variables by name (see format/colour.ts).
 */
export function colourEnv(): NodeJS.ProcessEnv {
  return process.env;
}

/**
 * The locale variables that say which characters stdout can show, as they are: read by name in
 * format/text-charset.ts (LC_ALL, then LC_CTYPE, then LANG).
 */
export function localeEnv(): NodeJS.ProcessEnv {
  return process.env;
}

export function readEnv(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): CliEnv {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success)
    throw new UsageError(
      `Invalid environment (fix or unset these variables):\n${z.prettifyError(parsed.error)}`,
      "invalid_environment",
    );
  const e = parsed.data;
  // The old name is read as ALLOT_URL (scripts set either); two servers is a mistake, not a choice.
  if (e.ALLOT_URL && e.ALLOT_BASE_URL && e.ALLOT_URL !== e.ALLOT_BASE_URL)
    throw new UsageError(
      "ALLOT_URL and ALLOT_BASE_URL (its old name) name different servers: set only ALLOT_URL.",
      "invalid_environment",
    );
  // Relative paths mean what they mean where the user typed the command, as for the server.
  const base = e.INIT_CWD ?? cwd;
  const dataDir = resolve(base, e.DATA_DIR ?? "./.data");
  const configHome = e.XDG_CONFIG_HOME ? resolve(base, e.XDG_CONFIG_HOME) : join(homedir(), ".config");
  const configPath = e.ALLOT_CONFIG
    ? resolve(base, e.ALLOT_CONFIG)
    : join(configHome, "allot", "config.json");
  return {
    database: e.DATABASE_URL ? { url: e.DATABASE_URL } : { dataDir: join(dataDir, "pglite") },
    configPath,
    // Named after the config file: each ALLOT_CONFIG (a test's, a second setup's) has its own.
    writeJournalPath: `${configPath.replace(/\.json$/, "")}.write-journal.json`,
    baseUrl: e.ALLOT_URL ?? e.ALLOT_BASE_URL,
    apiKey: e.ALLOT_API_KEY,
    profile: e.ALLOT_PROFILE,
    workingDirectory: base,
    mail: {
      // The server reads MAIL_DIR only with `file`, which is also what an unset MAIL_TRANSPORT means.
      directory:
        e.MAIL_DIR && (e.MAIL_TRANSPORT ?? "file") === "file"
          ? resolve(base, e.MAIL_DIR)
          : join(dataDir, "mail"),
      transport: e.MAIL_TRANSPORT,
    },
  };
}
