import { chmod, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod";

/** How `allot import csv` reads one bank's export, saved with --save-profile. */
const ImportProfileSchema = z.object({
  map: z.string(),
  date_format: z.string().optional(),
  decimal: z.enum([".", ","]).optional(),
  delimiter: z.string().optional(),
  skip_lines: z.number().int().nonnegative().optional(),
});

export type ImportProfile = z.infer<typeof ImportProfileSchema>;

const ConfigSchema = z.object({
  base_url: z.string().optional(),
  username: z.string().optional(),
  access_token: z.string().optional(),
  refresh_token: z.string().nullable().optional(),
  import_profiles: z.record(z.string(), ImportProfileSchema).optional(),
});

/** What `allot login` remembers between commands, and the import profiles. */
export type CliConfig = z.infer<typeof ConfigSchema>;

export async function readConfig(path: string): Promise<CliConfig> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw error;
  }
  const parsed = ConfigSchema.safeParse(safeJson(text));
  if (!parsed.success)
    throw new Error(`${path} is not a valid allot config file; delete it and log in again.`);
  return parsed.data;
}

/** Written whole, owner-only (it holds tokens), through a rename so a crash never leaves half a file. */
export async function writeConfig(path: string, config: CliConfig): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, path);
}

/** Forgets the login; the file goes unless it still holds import profiles, which outlive a session. */
export async function forgetLogin(path: string, config: CliConfig): Promise<void> {
  if (config.import_profiles && Object.keys(config.import_profiles).length > 0)
    await writeConfig(path, { import_profiles: config.import_profiles });
  else await rm(path, { force: true });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
