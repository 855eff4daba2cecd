// Builds dist/: the API server as one ES module bundle (the @allot packages, fastify, tRPC, the
// patched postgres driver…), so `pnpm start` runs plain `node` on JavaScript: no tsx compiling the
// app inside the server process. Kept outside: what cannot be bundled — argon2 (a native addon),
// PGlite (it loads its WebAssembly and data files beside its own module) and Scalar's fastify plugin
// (the reference page's script is a file beside it, which openapi/docs.ts streams from disk).
import { readFileSync, renameSync, rmSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { placeMigrations } from "../../../packages/db/scripts/place-migrations.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
// Built beside dist, then swapped in: a starting server never sees a half-written dist. Beside it,
// at dist's depth: the map names the sources relative to the bundle, and the bundle moves.
const building = join(root, `.dist-building-${process.pid}`);
const entry = "server/main.js";

try {
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: { "server/main": "src/main.ts" },
    outdir: building,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20.19",
    external: ["argon2", "@electric-sql/pglite", "@scalar/fastify-api-reference"],
    // Bundled CommonJS modules call require(): give the ES module bundle one.
    banner: {
      js: "import { createRequire as __allotCreateRequire } from 'node:module';\nconst require = __allotCreateRequire(import.meta.url);",
    },
    // V8 keeps the bundle's source text for the life of the process. Without whitespace and
    // comments it is 8 MB instead of 10.7; names stay, and the source map (read only when a crash
    // ends the process, decision 0061) leads its stack back to the sources.
    minifyWhitespace: true,
    sourcemap: "linked",
    logLevel: "warning",
    metafile: true,
  });

  // The bundle sits in server/: the migrations go to dist/drizzle.
  placeMigrations({ metafile, root, outdir: building });
  expectOneByteSource(join(building, entry));
} catch (error) {
  rmSync(building, { recursive: true, force: true });
  throw error;
}

rmSync(join(root, "dist"), { recursive: true, force: true });
renameSync(building, join(root, "dist"));

/**
 * V8 stores a script's source one byte a character while every character is Latin-1, else two:
 * one “ in the 8 MB bundle would cost 8 MB more for the life of the process. esbuild writes
 * strings and plain template literals in ASCII (`\u201C`), but not a tagged template's text, whose
 * raw form the tag can read: write such a character as an HTML entity or an interpolated string.
 */
function expectOneByteSource(file) {
  const source = readFileSync(file, "utf8");
  const at = source.search(/[\u0100-\uffff]/);
  if (at !== -1) {
    throw new Error(
      `dist/${relative(building, file)} holds a character beyond Latin-1, which doubles the memory V8 keeps ` +
        `its source in: …${source.slice(Math.max(0, at - 120), at + 40)}…`,
    );
  }
}
