// What the last build of dist/ was made from: every file esbuild bundled (the CLI's sources, the
// @allot packages', the dependencies'), the migrations copied beside it and the build's own
// settings, each with its modification time. `pnpm cli` (run-cli.mjs) rebuilds when one of them
// changed or went away: stat-ing the ~600 files takes a few milliseconds, a build a second or more.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";

/** Kept out of dist/, which is packed: the paths are this checkout's. */
const recordFile = (root) => join(root, "node_modules", ".cache", "allot-build-inputs.json");

/** Files a build reads besides the bundled modules: they change the output too. */
function settingsFiles(root) {
  const migrations = join(root, "../../packages/db/drizzle");
  return [
    "package.json", // the version written in
    "tsconfig.json",
    "../../tooling/tsconfig.base.json",
    "scripts/build.mjs",
    "scripts/build-inputs.mjs",
    "../../packages/db/scripts/place-migrations.mjs",
    // A folder's time changes when a file is added to it or removed.
    ...listTree(migrations).map((path) => relative(root, path)),
  ];
}

function listTree(folder) {
  return [
    folder,
    ...readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? listTree(join(folder, entry.name)) : [join(folder, entry.name)],
    ),
  ];
}

/**
 * A dependency's files stand for its folder in pnpm's store, named after its version (and patch):
 * they are not edited, and an install that changes the version removes the folder. Half as many
 * files to stat.
 */
const dependencyFolder = (path) => path.replace(/(node_modules\/\.pnpm\/[^/]+)\/.*/, "$1");

const modifiedAt = (root, path) => statSync(join(root, path), { throwIfNoEntry: false })?.mtimeMs;

/**
 * After a build that started at `startedAt` (ms since the epoch): `metafile` is esbuild's, its input
 * paths relative to `root` (its working directory).
 */
export function recordInputs(root, metafile, startedAt) {
  const inputs = {};
  const bundled = new Set(Object.keys(metafile.inputs).map(dependencyFolder));
  for (const path of [...bundled, ...settingsFiles(root)]) {
    const time = modifiedAt(root, path);
    // Saved while the build ran: the bundle may hold the text before, so the next run rebuilds.
    if (time !== undefined) inputs[path] = time < startedAt ? time : 0;
  }
  mkdirSync(dirname(recordFile(root)), { recursive: true });
  writeFileSync(recordFile(root), `${JSON.stringify({ inputs })}\n`);
}

/**
 * Why dist/ must be built again ("src/program.ts changed", "no build yet"…), or null when it was
 * made from the files as they are now. A file that the sources newly import is found through the
 * importing file, which changed.
 */
export function staleBecause(root, entry) {
  let recorded;
  try {
    recorded = JSON.parse(readFileSync(recordFile(root), "utf8")).inputs;
  } catch {
    return "no build recorded yet";
  }
  if (modifiedAt(root, entry) === undefined) return `${entry} is missing`;
  for (const [path, time] of Object.entries(recorded)) {
    const now = modifiedAt(root, path);
    if (now === undefined) return `${path} is gone`;
    if (now !== time) return `${path} changed`;
  }
  return null;
}
