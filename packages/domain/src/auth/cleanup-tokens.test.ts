import type { DatabaseHandle } from "@allot/db/create-database";
import { refreshTokens, sessions } from "@allot/db/schema/sessions";
import { throttleCounters } from "@allot/db/schema/throttle-counters";
import { openTestDatabase, testEngines } from "@allot/db/testing/test-databases";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { internalContext } from "../shared/use-case-context";
import { deleteExpiredThrottleCounters } from "../throttle/expired-throttle-counters";
import { createUser } from "../users/create-user";
import { createAccessTokens } from "./access-tokens";
import { cleanupTokens } from "./cleanup-tokens";
import { login } from "./login";
import { logout } from "./logout";
import { refreshSession } from "./refresh-session";
import { sha256 } from "./token-digest";

const DAY_MS = 86_400_000;
const PASSWORD = "correct horse battery staple";
const tokens = createAccessTokens("cleanup-test-secret-cleanup-test-secret-0123");

describe.each(testEngines())("token clean-up (%s)", (engine) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase(engine);
  });
  afterAll(async () => {
    await database?.close();
  });

  /** The context of a call (a login, a scheduled job) made at `now`. */
  const asOf = (now: Date) => ({
    ...internalContext(database.db, "scheduler", { tokens, refreshRotation: true }),
    now,
  });

  it("deletes expired refresh tokens and sessions that can no longer be used, and nothing else", async () => {
    const db = database.db;
    const now = new Date();
    const daysAgo = (days: number) => new Date(now.getTime() - days * DAY_MS);
    await createUser(internalContext(db, "cli"), { email: "cleanup@example.com", password: PASSWORD });
    const signIn = (when: Date) => login(asOf(when), { email: "cleanup@example.com", password: PASSWORD });
    const sessionOf = async (token: string) => {
      const [row] = await db
        .select()
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenDigest, sha256(token)));
      return row?.sessionId as string;
    };

    // Open and current: stays, with its token.
    const current = await signIn(now);
    // Rotated 20 days ago and again 7 days ago: the first token (blacklisted) expired, the live one stays.
    const rotatedLogin = await signIn(daysAgo(25));
    const rotatedOnce = await refreshSession(asOf(daysAgo(20)), { refreshToken: rotatedLogin.refreshToken });
    const rotatedTwice = await refreshSession(asOf(daysAgo(7)), {
      refreshToken: rotatedOnce.rotated?.refreshToken,
    });
    // Open, its only token expired 2 days ago: nothing can refresh it, its access tokens are long dead.
    const lapsed = await signIn(daysAgo(16));
    // Open, its token expired 10 minutes ago: an access token signed at its last refresh may still live.
    const justLapsed = await signIn(new Date(now.getTime() - 14 * DAY_MS - 10 * 60_000));
    // Logged out with an unexpired (blacklisted) token: kept until that token expires.
    const loggedOut = await signIn(daysAgo(1));
    await logout(asOf(now), { refreshToken: loggedOut.refreshToken });
    // Logged out long ago, token expired: goes.
    const endedLongAgo = await signIn(daysAgo(30));
    await logout(asOf(daysAgo(29)), { refreshToken: endedLongAgo.refreshToken });

    const ids = {
      current: await sessionOf(current.refreshToken),
      rotated: await sessionOf(rotatedLogin.refreshToken),
      lapsed: await sessionOf(lapsed.refreshToken),
      justLapsed: await sessionOf(justLapsed.refreshToken),
      loggedOut: await sessionOf(loggedOut.refreshToken),
      endedLongAgo: await sessionOf(endedLongAgo.refreshToken),
    };
    // Sessions are stamped by the database clock; age the old ones as if they had begun in the past.
    for (const [name, days] of [
      ["rotated", 25],
      ["lapsed", 16],
      ["justLapsed", 15],
      ["endedLongAgo", 30],
    ] as const) {
      await db
        .update(sessions)
        .set({ createdAt: daysAgo(days) })
        .where(eq(sessions.id, ids[name]));
    }

    const result = await cleanupTokens(asOf(now));
    expect(result).toEqual({ sessions: 2, refreshTokens: 3 });

    const left = await db
      .select({ id: sessions.id })
      .from(sessions)
      .where(inArray(sessions.id, Object.values(ids)));
    expect(left.map((s) => s.id).sort()).toEqual(
      [ids.current, ids.rotated, ids.justLapsed, ids.loggedOut].sort(),
    );
    const tokensLeft = await db.select({ digest: refreshTokens.tokenDigest }).from(refreshTokens);
    expect(tokensLeft.map((r) => r.digest).sort()).toEqual(
      [current.refreshToken, rotatedTwice.rotated?.refreshToken as string, loggedOut.refreshToken]
        .map(sha256)
        .sort(),
    );

    // Once the access-token lifetime has passed too, the just-lapsed session goes; a second run is a no-op.
    const later = new Date(now.getTime() + 60 * 60_000);
    expect(await cleanupTokens(asOf(later))).toEqual({ sessions: 1, refreshTokens: 0 });
    expect(await cleanupTokens(asOf(later))).toEqual({ sessions: 0, refreshTokens: 0 });
  });

  it("deletes throttle counters whose window has closed", async () => {
    const db = database.db;
    const now = new Date();
    await db.insert(throttleCounters).values([
      { key: "user:1|60", windowStart: 0, hits: 3, expiresAt: new Date(now.getTime() - 1000) },
      { key: "user:1|3600", windowStart: 0, hits: 3, expiresAt: new Date(now.getTime() + 60_000) },
    ]);
    expect(await deleteExpiredThrottleCounters(asOf(now))).toBe(1);
    const left = await db.select({ key: throttleCounters.key }).from(throttleCounters);
    expect(left).toEqual([{ key: "user:1|3600" }]);
  });
});
