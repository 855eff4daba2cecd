import { randomBytes } from "node:crypto";
import type { DatabaseHandle } from "@allot/db/create-database";
import { apiKeys } from "@allot/db/schema/api-keys";
import { sessions } from "@allot/db/schema/sessions";
import { users } from "@allot/db/schema/users";
import { openTestDatabase, testEngines } from "@allot/db/testing/test-databases";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Unauthenticated } from "../shared/errors";
import { createAccessTokens } from "./access-tokens";
import { authenticateAccessToken, authenticateApiKey } from "./authenticate";
import { credentialCacheFor } from "./credential-cache";
import { fenceCredentials, listenForCredentialRevocations } from "./credential-revocations";
import { startSession } from "./sessions";
import { sha256 } from "./token-digest";

const tokens = createAccessTokens("revocation-test-secret-revocation-test-0123");
const MINUTE_MS = 60_000;
let counter = 0;

describe.each(testEngines())("cached credentials (%s)", (engine) => {
  let database: DatabaseHandle;
  let stopListening: () => Promise<void>;
  beforeAll(async () => {
    database = await openTestDatabase(engine);
    stopListening = await listenForCredentialRevocations(database);
  });
  afterAll(async () => {
    await stopListening?.();
    await database?.close();
  });

  async function givenUser() {
    counter += 1;
    const [user] = await database.db
      .insert(users)
      .values({ username: `cache${counter}-${randomBytes(4).toString("hex")}` })
      .returning({ id: users.id });
    return (user as { id: number }).id;
  }

  async function givenSession() {
    const userId = await givenUser();
    const { access } = await startSession(database.db, tokens, userId, new Date());
    const [session] = await database.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(eq(sessions.userId, userId));
    return { userId, access, sessionId: (session as { id: string }).id };
  }

  async function givenApiKey(expiresAt: Date | null = null) {
    const userId = await givenUser();
    const key = `allot_${randomBytes(32).toString("base64url")}`;
    const [row] = await database.db
      .insert(apiKeys)
      .values({ userId, name: "importer", prefix: key.slice(0, 12), keyDigest: sha256(key), expiresAt })
      .returning({ id: apiKeys.id });
    return { userId, key, id: (row as { id: string }).id };
  }

  const refused = (attempt: Promise<unknown>) =>
    attempt.then(
      () => false,
      (error) => error instanceof Unauthenticated,
    );

  /** Polls `attempt` until it is refused; the milliseconds it took. */
  async function msUntilRefused(attempt: () => Promise<unknown>, limitMs = 2_000) {
    const start = performance.now();
    while (performance.now() - start < limitMs) {
      if (await refused(attempt())) return performance.now() - start;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return Number.POSITIVE_INFINITY;
  }

  it("refuses a cached access token as soon as it expires", async () => {
    // Given a token authenticated (and cached) a second before its expiry
    const { access } = await givenSession();
    const claims = await tokens.verify(access);
    const justBefore = new Date(claims.expiresAt.getTime() - 1_000);
    await authenticateAccessToken(database.db, tokens, access, justBefore);
    // When it is used again at its expiry, within the cache's second
    const attempt = authenticateAccessToken(database.db, tokens, access, claims.expiresAt);
    // Then it is refused as expired
    await expect(attempt).rejects.toThrow("Token has expired.");
  });

  it("refuses a cached API key as soon as it expires, and writes last_used_at once a minute", async () => {
    // Given a key that expires in two minutes, used now
    const now = new Date();
    const { key, id } = await givenApiKey(new Date(now.getTime() + 2 * MINUTE_MS));
    const lastUsed = async () =>
      (await database.db.select({ at: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.id, id)))[0]?.at;
    await authenticateApiKey(database.db, key, now);
    expect(await lastUsed()).toEqual(now);
    // When it is used again half a minute later, then last_used_at is not written again
    await authenticateApiKey(database.db, key, new Date(now.getTime() + MINUTE_MS / 2));
    expect(await lastUsed()).toEqual(now);
    // When it is used past the minute, then it is
    const later = new Date(now.getTime() + MINUTE_MS + 1);
    await authenticateApiKey(database.db, key, later);
    expect(await lastUsed()).toEqual(later);
    // When it is used at its expiry, then it is refused
    const expiry = new Date(now.getTime() + 2 * MINUTE_MS);
    await expect(authenticateApiKey(database.db, key, expiry)).rejects.toThrow("the key has expired");
  });

  it("refuses a token whose session plain SQL ended, once the NOTIFY arrives (well within the second)", async () => {
    // Given a cached token, and another user's
    const { access, sessionId } = await givenSession();
    const other = await givenSession();
    await authenticateAccessToken(database.db, tokens, access);
    await authenticateAccessToken(database.db, tokens, other.access);
    // When its session is ended by SQL (no domain code, no request)
    await database.db.update(sessions).set({ endedAt: new Date() }).where(eq(sessions.id, sessionId));
    // Then it is refused long before the cached entry would have expired on its own
    expect(await msUntilRefused(() => authenticateAccessToken(database.db, tokens, access))).toBeLessThan(
      500,
    );
    // And only that user's entries were evicted (the NOTIFY carries the user id)
    expect(credentialCacheFor(database.db, "credentials").get(sha256(other.access))).toBeDefined();
  });

  it("refuses a key revoked, or of a user made inactive, by SQL, once the NOTIFY arrives", async () => {
    const revoked = await givenApiKey();
    const inactive = await givenApiKey();
    await authenticateApiKey(database.db, revoked.key);
    await authenticateApiKey(database.db, inactive.key);

    await database.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, revoked.id));
    await database.db.update(users).set({ isActive: false }).where(eq(users.id, inactive.userId));

    expect(await msUntilRefused(() => authenticateApiKey(database.db, revoked.key))).toBeLessThan(500);
    expect(await msUntilRefused(() => authenticateApiKey(database.db, inactive.key))).toBeLessThan(500);
  });

  it("checks the database on the very next call once a write is fenced", async () => {
    // Given a cached token (used twice: the second from the cache)
    const { access, sessionId } = await givenSession();
    await authenticateAccessToken(database.db, tokens, access);
    await authenticateAccessToken(database.db, tokens, access);
    // When its session ends and the write is fenced, as after a write request's answer
    await database.db.update(sessions).set({ endedAt: new Date() }).where(eq(sessions.id, sessionId));
    fenceCredentials(database.db);
    // Then the very next call is refused, whether or not the NOTIFY has arrived yet
    await expect(authenticateAccessToken(database.db, tokens, access)).rejects.toThrow(
      "its session has ended",
    );
  });

  it("does not cache a failed lookup", async () => {
    const cache = credentialCacheFor(database.db, "credentials");
    const before = cache.size;
    await expect(
      authenticateApiKey(database.db, `allot_${randomBytes(32).toString("base64url")}`),
    ).rejects.toThrow("unknown key");
    await expect(authenticateAccessToken(database.db, tokens, "not-a-jwt")).rejects.toThrow(
      "Token is invalid.",
    );
    expect(cache.size).toBe(before);
  });
});
