import type { DatabaseHandle } from "@allot/db/create-database";
import { refreshTokens, sessions } from "@allot/db/schema/sessions";
import { openTestDatabase, testEngines } from "@allot/db/testing/test-databases";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Unauthenticated } from "../shared/errors";
import { internalContext } from "../shared/use-case-context";
import { createUser } from "../users/create-user";
import { createAccessTokens } from "./access-tokens";
import { login } from "./login";
import { logout } from "./logout";
import { refreshSession } from "./refresh-session";
import { sha256 } from "./token-digest";

const DAY_MS = 86_400_000;
const PASSWORD = "correct horse battery staple";
const tokens = createAccessTokens("refresh-test-secret-refresh-test-secret-0123");
const start = new Date("2030-01-01T00:00:00Z");
const at = (days: number) => new Date(start.getTime() + days * DAY_MS);
let counter = 0;

describe.each(testEngines())("refreshSession (%s)", (engine) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase(engine);
  });
  afterAll(async () => {
    await database?.close();
  });

  /** The context of a call made at `now`, the refresh token rotated on each refresh unless told not to. */
  const asOf = (now: Date, { rotate = true } = {}) => ({
    ...internalContext(database.db, "cli", { tokens, refreshRotation: rotate }),
    now,
  });

  async function signIn(now = start) {
    counter += 1;
    const email = `refresh${counter}@example.com`;
    await createUser(internalContext(database.db, "cli"), { email, password: PASSWORD });
    return login(asOf(now), { email, password: PASSWORD });
  }

  const refuse = (promise: Promise<unknown>, detail: string) =>
    expect(promise).rejects.toSatisfy((e) => e instanceof Unauthenticated && e.message === detail);

  it("with rotation, slides the 14-day window: each new token lives 14 days from its refresh", async () => {
    const first = await signIn();
    expect(first.refreshExpiresAt).toEqual(at(14));
    const second = await refreshSession(asOf(at(10)), { refreshToken: first.refreshToken });
    expect(second.rotated?.refreshExpiresAt).toEqual(at(24));
    const third = await refreshSession(asOf(at(20)), { refreshToken: second.rotated?.refreshToken });
    expect(third.rotated?.refreshExpiresAt).toEqual(at(34));
    await expect(tokens.verify(third.access)).resolves.toMatchObject({});
    // Past the first login's 14 days, the rotated token lapses only 14 days after its own refresh.
    await refuse(
      refreshSession(asOf(at(34)), { refreshToken: third.rotated?.refreshToken }),
      "Token has expired.",
    );
  });

  it("without rotation, keeps the token and its original expiry", async () => {
    const first = await signIn();
    const refreshed = await refreshSession(asOf(at(13), { rotate: false }), {
      refreshToken: first.refreshToken,
    });
    expect(refreshed.rotated).toBeNull();
    const [row] = await database.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenDigest, sha256(first.refreshToken)));
    expect(row).toMatchObject({ blacklistedAt: null, expiresAt: at(14) });
    await refuse(
      refreshSession(asOf(at(14), { rotate: false }), { refreshToken: first.refreshToken }),
      "Token has expired.",
    );
  });

  it("ends the whole session when a rotated token is presented again", async () => {
    const first = await signIn();
    const second = await refreshSession(asOf(at(1)), { refreshToken: first.refreshToken });
    await refuse(refreshSession(asOf(at(2)), { refreshToken: first.refreshToken }), "Token is blacklisted.");
    const claims = await tokens.verify(second.access).catch(() => null);
    const sessionId = claims?.sessionId ?? "";
    const [session] = await database.db.select().from(sessions).where(eq(sessions.id, sessionId));
    expect(session?.endedAt).toEqual(at(2));
    const live = await database.db.select().from(refreshTokens).where(eq(refreshTokens.sessionId, sessionId));
    expect(live.every((r) => r.blacklistedAt !== null)).toBe(true);
    await refuse(
      refreshSession(asOf(at(2)), { refreshToken: second.rotated?.refreshToken }),
      "Token is blacklisted.",
    );
  });

  it("lets one of two concurrent refreshes of one token through", async () => {
    const first = await signIn();
    const results = await Promise.allSettled([
      refreshSession(asOf(at(1)), { refreshToken: first.refreshToken }),
      refreshSession(asOf(at(1)), { refreshToken: first.refreshToken }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
  });

  it("refuses a missing or unknown token, and any token once logged out", async () => {
    await refuse(
      refreshSession(asOf(new Date()), { refreshToken: undefined }),
      "No refresh token cookie was sent.",
    );
    await refuse(refreshSession(asOf(new Date()), { refreshToken: "nope" }), "Token is invalid.");
    const first = await signIn();
    await logout(asOf(at(1)), { refreshToken: first.refreshToken });
    await refuse(refreshSession(asOf(at(1)), { refreshToken: first.refreshToken }), "Token is blacklisted.");
  });
});
