import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["{packages,apps,bench}/*/{src,test}/**/*.test.ts"],
    globalSetup: ["./tooling/vitest/global-setup.ts"],
    pool: "forks",
    isolate: false,
    setupFiles: ["./tooling/vitest/fresh-workspace-modules.ts"],
    // Two cores: more workers only fight over them (and each PGlite takes hundreds of MB).
    maxWorkers: 2,
    testTimeout: 30_000,
    // Every answer of the API is checked against its contract's schema (apps/api/src/trpc/answer-schema.ts).
    env: { ALLOT_CHECK_ANSWERS: "1" },
    hookTimeout: 60_000,
  },
});
