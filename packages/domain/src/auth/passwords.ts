import argon2 from "argon2";

// OWASP's argon2id minimum (19 MiB, 2 passes, 1 lane): ~30 ms a hash on this hardware.
const HASH_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => argon2.hash(password, HASH_OPTIONS);

// Verified against when the user is unknown, so a missing account takes as long as a wrong password.
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  if (!hash) {
    dummyHash ??= hashPassword("not a real password");
    await argon2.verify(await dummyHash, password);
    return false;
  }
  return argon2.verify(hash, password);
}
