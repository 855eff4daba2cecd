// Builds dist/: the `allot` command as one ES module bundle (with the @allot packages, commander,
// the patched postgres driver…) so it starts without tsx, plus chunks for what only some commands
// load (the admin commands' database). Kept outside: what cannot be bundled — argon2 (a native
// addon) and PGlite (it loads its WebAssembly and data files beside its own module); they are the
// package's only dependencies.
import { readFileSync, renameSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { placeMigrations } from "../../../packages/db/scripts/place-migrations.mjs";
import { recordInputs } from "./build-inputs.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
// Built beside dist, then swapped in: a run of the CLI never sees a half-written dist.
const building = join(root, "node_modules", `.dist-building-${process.pid}`);
const startedAt = Date.now();

let metafile;
try {
  ({ metafile } = await build({
    absWorkingDir: root,
    entryPoints: { allot: "src/main.ts" },
    outdir: building,
    chunkNames: "chunks/[name]-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20.19",
    external: ["argon2", "@electric-sql/pglite"],
    // Bundled CommonJS modules call require(): give each ES module chunk one.
    banner: {
      js: "#!/usr/bin/env node\nimport { createRequire as __allotCreateRequire } from 'node:module';\nconst require = __allotCreateRequire(import.meta.url);",
    },
    define: { __ALLOT_CLI_VERSION__: JSON.stringify(version) },
    logLevel: "warning",
    metafile: true,
  }));

  // The chunk holding the database package sits in chunks/: the migrations go to dist/drizzle.
  placeMigrations({ metafile, root, outdir: building });
} catch (error) {
  rmSync(building, { recursive: true, force: true });
  throw error;
}

rmSync(join(root, "dist"), { recursive: true, force: true });
renameSync(building, join(root, "dist"));
// For `pnpm cli` (run-cli.mjs): it builds again only when one of these files changes.
recordInputs(root, metafile, startedAt);
