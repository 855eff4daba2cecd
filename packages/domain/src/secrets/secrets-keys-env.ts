import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { SecretsKeys } from "./secret-vault";

/**
 * The variables of the key secrets are sealed with at rest, read by the API's and cron's env.ts
 * alike (both sign webhooks): SECRETS_KEY (else JWT_SECRET), and after a rotation the key it
 * replaced, until the next start has re-sealed everything (decision 0049).
 */
export const secretsKeysEnv = {
  SECRETS_KEY: z.string().min(32, "SECRETS_KEY must be at least 32 characters").optional(),
  SECRETS_KEY_PREVIOUS: z.string().min(32, "SECRETS_KEY_PREVIOUS must be at least 32 characters").optional(),
};

/** The keys of the variables above; `jwtSecret` is the key when SECRETS_KEY is not set. */
export const secretsKeysOf = (
  env: { SECRETS_KEY?: string; SECRETS_KEY_PREVIOUS?: string },
  jwtSecret: string,
): SecretsKeys => ({ key: env.SECRETS_KEY ?? jwtSecret, previousKey: env.SECRETS_KEY_PREVIOUS ?? null });

/**
 * The embedded mode's JWT_SECRET: generated once into `DATA_DIR/jwt-secret`, so tokens survive
 * restarts, and the server and `pnpm cron` (which take turns on the embedded database) share it.
 */
export function embeddedJwtSecret(dataDir: string): string {
  const file = join(dataDir, "jwt-secret");
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    const secret = randomBytes(48).toString("base64url");
    try {
      mkdirSync(dataDir, { recursive: true });
      writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
    } catch (error) {
      // Read by the env's readers as the start-up failure's message: it names the variable.
      throw new Error(
        `DATA_DIR cannot hold the generated JWT secret (${(error as Error).message}): set DATA_DIR to a folder this user can write.`,
      );
    }
    return secret;
  }
}
