import { describe, expect, it } from "vitest";
import { isSealed, secretVault } from "./secret-vault";

const KEY = "a-secrets-key-of-at-least-32-characters-0001";
const NEXT = "a-secrets-key-of-at-least-32-characters-0002";

describe("the secret vault", () => {
  it("seals with AES-256-GCM: the value is not in what is stored, and opens only as what it was sealed for", () => {
    const vault = secretVault({ key: KEY, previousKey: null });
    const secret = "whsec_c2VjcmV0IG9mIGEgd2ViaG9vaw==";
    const sealed = vault.seal("webhook-secret", secret);
    expect(isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain(secret);
    expect(sealed).not.toContain(Buffer.from(secret).toString("base64"));
    // A fresh IV each time: one secret sealed twice gives two texts.
    expect(vault.seal("webhook-secret", secret)).not.toBe(sealed);
    expect(vault.open("webhook-secret", sealed)).toBe(secret);
    expect(() => vault.open("idempotency-answer", sealed)).toThrow();
    // Tampered: the tag no longer matches.
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith("A") ? "B" : "A"}A`;
    expect(() => vault.open("webhook-secret", tampered)).toThrow();
    // Clear text stored before sealing opens as it is (until the start-up conversion seals it).
    expect(vault.open("webhook-secret", "whsec_legacy")).toBe("whsec_legacy");
  });

  it("opens what the replaced key sealed once it is the previous key, and nothing sealed by an unknown one", () => {
    const before = secretVault({ key: KEY, previousKey: null });
    const sealed = before.seal("idempotency-answer", '{"key":"ak_x"}');
    const after = secretVault({ key: NEXT, previousKey: KEY });
    expect(after.open("idempotency-answer", sealed)).toBe('{"key":"ak_x"}');
    expect(after.sealedWithCurrentKey(sealed)).toBe(false);
    expect(after.sealedWithCurrentKey(after.seal("webhook-secret", "s"))).toBe(true);
    expect(() => secretVault({ key: NEXT, previousKey: null }).open("idempotency-answer", sealed)).toThrow(
      /SECRETS_KEY_PREVIOUS/,
    );
  });

  it("fingerprints with HMAC under the key: another key gives another, the previous key's still matches", () => {
    const digest = "0".repeat(64);
    const vault = secretVault({ key: KEY, previousKey: null });
    expect(vault.fingerprint(digest)).toMatch(/^[0-9a-f]{64}$/);
    expect(vault.fingerprint(digest)).not.toBe(digest);
    const rotated = secretVault({ key: NEXT, previousKey: KEY });
    expect(rotated.fingerprint(digest)).not.toBe(vault.fingerprint(digest));
    expect(rotated.fingerprints(digest)).toEqual([rotated.fingerprint(digest), vault.fingerprint(digest)]);
  });
});
