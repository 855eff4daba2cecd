import { vi } from "vitest";

// Runs before each test file (vitest.config.ts, isolate: false). The worker process is kept from
// file to file, and with it what Node loaded from node_modules (fastify, drizzle, PGlite, zod, the
// AWS SDK…); the workspace's own modules are evaluated afresh for each file, so their state (caches,
// counters, watched networks) never carries from one file to the next, as with isolate: true.
vi.resetModules();
