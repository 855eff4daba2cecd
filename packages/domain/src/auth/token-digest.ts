import { createHash, randomBytes } from "node:crypto";

/** Hex SHA-256: what is stored for refresh tokens and API keys instead of the secret itself. */
export const sha256 = (secret: string) => createHash("sha256").update(secret).digest("hex");

export const randomToken = (bytes = 32) => randomBytes(bytes).toString("base64url");
