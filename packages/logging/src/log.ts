import type { Logger } from "pino";

/** What code that logs needs of a logger: the server's (fastify's), cron's, or a child of either. */
export type Log = Pick<Logger, "info" | "warn" | "error">;
