import { chmod, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod";

const ConfigSchema = z.object({
  base_url: z.string().optional(),
  username: z.string().optional(),
  access_token: z.string().optional(),
  refresh_token: z.string().nullable().optional(),
});

/** What `allot login` remembers between commands. */
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

export async function deleteConfig(path: string): Promise<void> {
  await rm(path, { force: true });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
