import { describe, expect, it } from "vitest";
import { CredentialCache } from "./credential-cache";

/** A cache on a clock the test moves by hand. */
function givenCache(options: { ttlMs?: number; maxEntries?: number } = {}) {
  let now = 1_000_000;
  const cache = new CredentialCache<{ userId: number }>({ ...options, clock: () => now });
  const advance = (ms: number) => {
    now += ms;
  };
  const stored = (digest: string, userId: number) => cache.store(digest, { userId }, cache.startLookup());
  return { cache, advance, stored };
}

describe("CredentialCache", () => {
  it("reuses a stored lookup until its time to live is over", () => {
    // Given a lookup stored with a one-second life
    const { cache, advance, stored } = givenCache({ ttlMs: 1_000 });
    stored("a", 1);
    // When 999 ms pass, then it is still there
    advance(999);
    expect(cache.get("a")).toEqual({ userId: 1 });
    // When the second is over, then it is gone (and forgotten)
    advance(1);
    expect(cache.get("a")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("keeps at most maxEntries, evicting the oldest first", () => {
    // Given a cache of three entries, full
    const { cache, stored } = givenCache({ maxEntries: 3 });
    stored("a", 1);
    stored("b", 2);
    stored("c", 3);
    // When a fourth is stored
    stored("d", 4);
    // Then the oldest is gone and the rest stay
    expect(cache.size).toBe(3);
    expect(cache.get("a")).toBeUndefined();
    expect(["b", "c", "d"].map((digest) => cache.get(digest)?.userId)).toEqual([2, 3, 4]);
  });

  it("evicts every entry of a revoked user, and only theirs", () => {
    // Given two credentials of user 1 and one of user 2
    const { cache, stored } = givenCache();
    stored("token", 1);
    stored("key", 1);
    stored("other", 2);
    // When user 1's credentials are revoked
    cache.evictUser(1);
    // Then theirs are gone, the other user's stays
    expect(cache.get("token")).toBeUndefined();
    expect(cache.get("key")).toBeUndefined();
    expect(cache.get("other")).toEqual({ userId: 2 });
  });

  it("does not store a lookup that began before a revocation was evicted", () => {
    // Given a lookup that read the database before the revocation committed
    const { cache } = givenCache();
    const lookup = cache.startLookup();
    // When the revocation's eviction arrives before the lookup stores its (stale) row
    cache.evictUser(1);
    cache.store("token", { userId: 1 }, lookup);
    // Then nothing is cached: the next request reads the database again
    expect(cache.get("token")).toBeUndefined();
    // And a lookup begun after the eviction is stored
    cache.store("token", { userId: 1 }, cache.startLookup());
    expect(cache.get("token")).toEqual({ userId: 1 });
  });

  it("is bypassed while a fence is up, and used again once it is lifted", () => {
    // Given a cached credential
    const { cache, stored } = givenCache();
    stored("token", 1);
    // When a write request puts a fence up
    const fence = cache.fence();
    // Then the cache neither answers nor stores
    expect(cache.get("token")).toBeUndefined();
    stored("other", 2);
    // When the fence comes back down
    expect(cache.lift(fence)).toBe(true);
    expect(cache.lift(fence)).toBe(false);
    // Then the entry from before is answered again, and what was refused during the fence is not there
    expect(cache.get("token")).toEqual({ userId: 1 });
    expect(cache.get("other")).toBeUndefined();
  });

  it("clears everything, and refuses lookups begun before", () => {
    const { cache, stored } = givenCache();
    stored("a", 1);
    const lookup = cache.startLookup();
    cache.clear();
    cache.store("b", { userId: 2 }, lookup);
    expect(cache.size).toBe(0);
  });
});
