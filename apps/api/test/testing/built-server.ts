import { fileURLToPath } from "node:url";

/**
 * The built server as `pnpm start` runs it: scripts/run-server (its Node and glibc settings, then
 * `exec node dist/server/main.js`, so the process spawned is the server itself). The vitest global
 * setup builds dist/ once per run. Arguments given are Node options, e.g. a preload.
 */
export const RUN_BUILT_SERVER = fileURLToPath(new URL("../../scripts/run-server", import.meta.url));
