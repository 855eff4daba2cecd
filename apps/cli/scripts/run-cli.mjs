// `pnpm cli …`: runs the built `allot` (dist/allot.js), as an install does, in this process. It
// builds first only when a file the bundle was made from changed since the last build (see
// build-inputs.mjs: a few milliseconds to check); tsx compiling the sources at each start took
// 3.5–4 s a command. `pnpm --filter @allot/cli dev` still runs the sources through tsx.
import { spawnSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { staleBecause } from "./build-inputs.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const entry = "dist/allot.js";

const stale = staleBecause(root, entry);
if (stale !== null) {
  // On stderr, as everything the build prints: stdout is the command's (`pnpm cli … --json`).
  process.stderr.write(`Building allot (${stale})…\n`);
  const build = spawnSync(process.execPath, [join(root, "scripts/build.mjs")], {
    stdio: ["ignore", process.stderr, process.stderr],
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
await import(pathToFileURL(join(root, entry)).href);
