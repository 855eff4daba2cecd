import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";

/**
 * The server's key for what it keeps secret at rest (SECRETS_KEY, else JWT_SECRET), and the one a
 * rotation replaced: values sealed with it are still opened, and re-sealed at start-up (decision 0049).
 */
export interface SecretsKeys {
  key: string;
  previousKey: string | null;
}

/** What a sealed value is for: each has its own derived key, and a value opens only as what it was sealed for. */
export type SealPurpose = "webhook-secret" | "idempotency-answer" | "email-body";

// `sealed1.<key id>.<base64url of IV | GCM tag | ciphertext>`: clear text never starts with it.
const SEALED_PREFIX = "sealed1.";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Whether a stored value is sealed (else it is clear text written before sealing, to be converted). */
export const isSealed = (stored: string | null): stored is string =>
  stored?.startsWith(SEALED_PREFIX) ?? false;

/** The SQL `like` pattern of sealed values. */
export const SEALED_LIKE = `${SEALED_PREFIX}%`;

interface DerivedKeys {
  id: string;
  seal: Record<SealPurpose, Buffer>;
  fingerprint: Buffer;
}

const derive = (root: string, info: string) =>
  Buffer.from(hkdfSync("sha256", root, "allot secrets at rest", info, 32));

function derivedKeys(root: string): DerivedKeys {
  return {
    id: derive(root, "key id").subarray(0, 4).toString("hex"),
    seal: {
      "webhook-secret": derive(root, "seal webhook-secret"),
      "idempotency-answer": derive(root, "seal idempotency-answer"),
      "email-body": derive(root, "seal email-body"),
    },
    fingerprint: derive(root, "idempotency fingerprint"),
  };
}

/**
 * Seals and opens secrets with AES-256-GCM under keys derived (HKDF-SHA256) from the server's key,
 * and gives keyed digests (HMAC-SHA256): a database dump alone reveals no secret and no password.
 */
export interface SecretVault {
  seal(purpose: SealPurpose, plain: string): string;
  /** The clear text of a sealed value; a value stored before sealing (clear text) as it is. */
  open(purpose: SealPurpose, stored: string): string;
  /** Whether a stored value is sealed with the current key (else it is converted at start-up). */
  sealedWithCurrentKey(stored: string | null): boolean;
  /** HMAC-SHA256 hex of a request digest under the current key. */
  fingerprint(digest: string): string;
  /** The same under every key held (current first): a record made before a rotation still matches. */
  fingerprints(digest: string): string[];
}

export function secretVault({ key, previousKey }: SecretsKeys): SecretVault {
  const current = derivedKeys(key);
  const held = previousKey ? [current, derivedKeys(previousKey)] : [current];
  const hmac = (keys: DerivedKeys, digest: string) =>
    createHmac("sha256", keys.fingerprint).update(digest).digest("hex");
  return {
    seal(purpose, plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", current.seal[purpose], iv);
      cipher.setAAD(Buffer.from(purpose));
      const sealed = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      const payload = Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url");
      return `${SEALED_PREFIX}${current.id}.${payload}`;
    },
    open(purpose, stored) {
      if (!isSealed(stored)) return stored;
      const [, id, payload] = stored.split(".");
      const keys = held.find((candidate) => candidate.id === id);
      if (!keys || payload === undefined)
        throw new Error(
          `A ${purpose} is sealed with a key this server does not hold (key id ${id}): set SECRETS_KEY_PREVIOUS to the key it replaced.`,
        );
      const bytes = Buffer.from(payload, "base64url");
      const decipher = createDecipheriv("aes-256-gcm", keys.seal[purpose], bytes.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(purpose));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([
        decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString("utf8");
    },
    sealedWithCurrentKey: (stored) => isSealed(stored) && stored.split(".")[1] === current.id,
    fingerprint: (digest) => hmac(current, digest),
    fingerprints: (digest) => held.map((keys) => hmac(keys, digest)),
  };
}
