#!/usr/bin/env node
// The `allot` command: the bundle scripts/build.mjs writes to dist/. A committed file rather than
// dist/allot.js itself, so that the command exists before a build: pnpm links the workspace's
// commands at install, and warned "Failed to create bin" while dist/ was not built yet.
import { existsSync } from "node:fs";

const bundle = new URL("../dist/allot.js", import.meta.url);
if (!existsSync(bundle)) {
  process.stderr.write("allot is not built yet: run `pnpm --filter @allot/cli build` in the repository.\n");
  process.exit(1);
}
await import(bundle.href);
