import { describe } from "vitest";

/** A server some suites need, and the variable that names it. */
interface TestServer {
  name: string;
  variable: string;
}

export const POSTGRES_SERVER: TestServer = { name: "PostgreSQL", variable: "DATABASE_URL" };

/**
 * A suite that needs a server the README's plain `pnpm test` (PGlite alone) does not have: run
 * when the server's variable is set (CI sets them all), and otherwise declared and skipped with
 * the reason in its title. Never an empty `describe.each`: a file whose every suite is left out
 * holds no suite, and vitest fails it. The body gets the server's address.
 */
export function describeOnServer(server: TestServer, title: string, suite: (url: string) => void) {
  const url = process.env[server.variable];
  if (url) describe(title, () => suite(url));
  else describe.skip(`${title} (skipped: needs ${server.name}, set ${server.variable})`, () => suite(""));
}

/**
 * A suite that only a PostgreSQL server can run (connections that overlap, processes sharing one
 * database, a server restart): PGlite serves one connection in one process.
 */
export function describeOnPostgres(title: string, suite: (url: string) => void) {
  describeOnServer(POSTGRES_SERVER, title, suite);
}
