import type { Database } from "@allot/db/create-database";
import { perDatabase } from "@allot/db/per-database";

/** How long a successful lookup is reused: the floor of the revocation guarantee if a NOTIFY is lost. */
export const CREDENTIAL_TTL_MS = 1_000;
/** At most this many credentials are remembered; the oldest go first. */
export const CREDENTIAL_CACHE_ENTRIES = 10_000;

export interface CredentialCacheOptions {
  ttlMs?: number;
  maxEntries?: number;
  clock?: () => number;
}

/**
 * Successful credential lookups (a verified access token with its session, an API key row), keyed
 * by a digest of the credential and reused for at most `ttlMs`. Revocation evicts a user's entries
 * (`evictUser`, from the database's NOTIFY). A lookup takes a generation before it reads the
 * database and stores only if no eviction happened since: a read that began before a revocation
 * committed never lands after its eviction. While a fence is up (a write request was answered and
 * its NOTIFYs may still be on their way) nothing is read from or stored in the cache.
 */
export class CredentialCache<T extends { userId: number }> {
  private readonly entries = new Map<string, { value: T; storedAt: number }>();
  private readonly fences = new Set<number>();
  private generation = 0;
  private nextFence = 0;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly clock: () => number;
  /** Whether this process listens for revocations; without it a write clears everything at once. */
  listening = false;

  constructor(options: CredentialCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? CREDENTIAL_TTL_MS;
    this.maxEntries = options.maxEntries ?? CREDENTIAL_CACHE_ENTRIES;
    this.clock = options.clock ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  get(digest: string): T | undefined {
    if (this.fences.size) return undefined;
    const entry = this.entries.get(digest);
    if (!entry) return undefined;
    if (this.clock() - entry.storedAt >= this.ttlMs) {
      this.entries.delete(digest);
      return undefined;
    }
    return entry.value;
  }

  /** Taken before a lookup reads the database; `store` needs it. */
  startLookup(): number {
    return this.generation;
  }

  store(digest: string, value: T, lookup: number): void {
    if (lookup !== this.generation || this.fences.size) return;
    this.entries.delete(digest);
    this.entries.set(digest, { value, storedAt: this.clock() });
    // A Map iterates in insertion order: the first key is the oldest entry.
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  evictUser(userId: number): void {
    this.generation += 1;
    for (const [digest, entry] of this.entries) {
      if (entry.value.userId === userId) this.entries.delete(digest);
    }
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  /** Puts a fence up: the cache is bypassed until `lift` takes it down. */
  fence(): number {
    this.nextFence += 1;
    this.fences.add(this.nextFence);
    return this.nextFence;
  }

  /** Takes a fence down; false if it was not up. */
  lift(fence: number): boolean {
    return this.fences.delete(fence);
  }
}

/** What a successful lookup leaves for the next requests with the same credential. */
export type CachedCredential =
  | {
      kind: "access_token";
      userId: number;
      username: string;
      isStaff: boolean;
      sessionId: string;
      expiresAt: Date;
    }
  | {
      kind: "api_key";
      userId: number;
      username: string;
      isStaff: boolean;
      apiKey: { uuid: string; name: string; prefix: string };
      expiresAt: Date | null;
      lastUsedAt: Date | null;
    };

/** The cache of a database handle: one per process and database, shared by every request. */
export const credentialCacheFor = perDatabase(
  (_db: Database, _key: "credentials") => new CredentialCache<CachedCredential>(),
);
