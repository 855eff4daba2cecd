import { randomBytes } from "node:crypto";

export const API_KEY_PREFIX_LENGTH = 12;

/** `allot_` + 32 random bytes, base64url: the plaintext a client sends as `Api-Key <key>`. */
export const generateApiKey = () => `allot_${randomBytes(32).toString("base64url")}`;

/** The first characters of a key, kept so a user can tell their keys apart. */
export const apiKeyPrefix = (key: string) => key.slice(0, API_KEY_PREFIX_LENGTH);
