import { createDatabase } from "@allot/db/create-database";
import { createAccessTokens } from "@allot/domain/auth/access-tokens";
import { buildApp } from "./app";
import { readEnv } from "./env";

const env = readEnv();
const database = await createDatabase(env.database);
await database.migrate();
const app = await buildApp(
  { db: database.db, tokens: createAccessTokens(env.config.jwtSecret), config: env.config },
  { logger: { level: env.logLevel } },
);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, async () => {
    await app.close();
    await database.close();
    process.exit(0);
  });
}

await app.listen({ port: env.port, host: env.host });
