import { createRequire } from "node:module";

// The bundle (scripts/build.mjs) writes the version in; run from source (tsx), it is read from
// package.json, one folder up from src/ as from dist/.
declare const __ALLOT_CLI_VERSION__: string | undefined;

export const CLI_VERSION: string =
  typeof __ALLOT_CLI_VERSION__ === "string"
    ? __ALLOT_CLI_VERSION__
    : (createRequire(import.meta.url)("../package.json") as { version: string }).version;
