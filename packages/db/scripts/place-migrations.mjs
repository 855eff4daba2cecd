import { cpSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * For a build that bundles this package (the API server, the CLI): create-database.ts finds the
 * migrations at `../drizzle` from its own module, so they are copied to `<outdir>/drizzle`, after
 * checking that exactly one output file holds it, one folder below `outdir`. `metafile` is
 * esbuild's; `root` its working directory.
 */
export function placeMigrations({ metafile, root, outdir }) {
  const databaseModule = relative(root, join(packageRoot, "src/create-database.ts"));
  const holders = Object.entries(metafile.outputs)
    .filter(([, output]) => databaseModule in output.inputs)
    .map(([file]) => relative(outdir, join(root, file)));
  const folder = holders.length === 1 && holders[0] ? dirname(holders[0]) : ".";
  if (folder === "." || dirname(folder) !== ".")
    throw new Error(`create-database.ts must be in one file one folder below the output, not in ${holders}`);
  cpSync(join(packageRoot, "drizzle"), join(outdir, "drizzle"), { recursive: true });
}
