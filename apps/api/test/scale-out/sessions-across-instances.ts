import { sessions } from "@allot/db/schema/sessions";
import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import type { ApiPair } from "./api-pair";
import { changePassword, logIn, login, logout, newUser, PASSWORD, refresh, type Session } from "./http-calls";

const NEW_PASSWORD = "violet tractor mountain 9917";
/** Decision 0045: an instance may serve a cached credential for at most this long after it ended. */
const REVOCATION_BOUND_MS = 1_000;
/** How long a check waits for a refusal before it reports none (past the bound: it fails). */
const GIVE_UP_MS = 3_000;

const asMe = (base: string, authorization: string) =>
  fetch(`${base}/api/v1/users/me/`, { headers: { authorization } });

/** Asks `base` again and again until it refuses the credential (401); the milliseconds it took. */
async function msUntilRefused(base: string, authorization: string): Promise<number> {
  const start = performance.now();
  for (;;) {
    const response = await asMe(base, authorization);
    await response.body?.cancel();
    const ms = performance.now() - start;
    if (response.status === 401 || ms > GIVE_UP_MS) return ms;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Uses a credential twice on an instance: the second answer may come from its cache. */
async function usedTwice(base: string, authorization: string) {
  for (const _ of [1, 2]) expect((await asMe(base, authorization)).status).toBe(200);
}

/** The session id of an access token (its `sid` claim). */
const sessionIdOf = (session: Session) =>
  JSON.parse(Buffer.from(session.bearer.split(".")[1] ?? "", "base64url").toString()).sid as string;

/**
 * (c) A credential ended on one instance (or by no instance: plain SQL) is refused by the instance
 * that ended it at once, and by every other instance within a second (decision 0045: each caches a
 * credential for a second at most, and a NOTIFY evicts it on revocation, usually within
 * milliseconds).
 */
export function sessionsEndEverywhere(pair: ApiPair) {
  it("refuses a session logged out on the other instance within a second", async () => {
    const email = await newUser(pair, "logout");
    const session = await logIn(pair.a.base, email);
    await usedTwice(pair.b.base, session.bearer);
    await usedTwice(pair.a.base, session.bearer);

    expect((await logout(pair.a.base, session)).status).toBe(204);
    expect((await asMe(pair.a.base, session.bearer)).status).toBe(401);
    expect(await msUntilRefused(pair.b.base, session.bearer)).toBeLessThan(REVOCATION_BOUND_MS);
    expect((await refresh(pair.b.base, session)).status).toBe(401);
  });

  it("refuses the other sessions of a user whose password changed on the other instance within a second", async () => {
    const email = await newUser(pair, "password");
    const kept = await logIn(pair.a.base, email);
    const other = await logIn(pair.b.base, email);
    await usedTwice(pair.b.base, other.bearer);
    await usedTwice(pair.a.base, other.bearer);

    expect((await changePassword(pair.a.base, kept, PASSWORD, NEW_PASSWORD)).status).toBe(204);
    expect((await asMe(pair.a.base, other.bearer)).status).toBe(401);
    expect(await msUntilRefused(pair.b.base, other.bearer)).toBeLessThan(REVOCATION_BOUND_MS);
    expect((await refresh(pair.b.base, other)).status).toBe(401);
    // The session that changed it goes on, on either instance; the old password is refused.
    expect((await asMe(pair.b.base, kept.bearer)).status).toBe(200);
    expect((await login(pair.b.base, email)).status).toBe(401);
    expect((await login(pair.b.base, email, NEW_PASSWORD)).status).toBe(200);
  });

  it("refuses an API key revoked on the other instance within a second", async () => {
    const session = await logIn(pair.a.base, await newUser(pair, "key"));
    const created = await fetch(`${pair.a.base}/api/v1/users/me/api-keys/`, {
      method: "POST",
      headers: { authorization: session.bearer, "content-type": "application/json" },
      body: JSON.stringify({ name: "importer" }),
    });
    expect(created.status).toBe(201);
    const { key, uuid } = (await created.json()) as { key: string; uuid: string };
    const apiKey = `Api-Key ${key}`;
    await usedTwice(pair.b.base, apiKey);
    await usedTwice(pair.a.base, apiKey);

    const revoked = await fetch(`${pair.a.base}/api/v1/users/me/api-keys/${uuid}/revoke/`, {
      method: "POST",
      headers: { authorization: session.bearer },
    });
    expect(revoked.status).toBe(200);
    expect((await asMe(pair.a.base, apiKey)).status).toBe(401);
    expect(await msUntilRefused(pair.b.base, apiKey)).toBeLessThan(REVOCATION_BOUND_MS);
  });

  it("refuses on both instances within a second a session ended by plain SQL", async () => {
    const session = await logIn(pair.a.base, await newUser(pair, "sql"));
    await usedTwice(pair.a.base, session.bearer);
    await usedTwice(pair.b.base, session.bearer);

    // Neither instance serves this: what an administrator's SQL, the CLI or a cron job would do.
    await pair.db
      .update(sessions)
      .set({ endedAt: new Date() })
      .where(eq(sessions.id, sessionIdOf(session)));
    const [onA, onB] = await Promise.all([
      msUntilRefused(pair.a.base, session.bearer),
      msUntilRefused(pair.b.base, session.bearer),
    ]);
    expect(onA).toBeLessThan(REVOCATION_BOUND_MS);
    expect(onB).toBeLessThan(REVOCATION_BOUND_MS);
  });
}
