import { expect, it } from "vitest";
import type { ApiPair } from "./api-pair";
import { changePassword, logIn, login, logout, me, newUser, PASSWORD, refresh } from "./http-calls";

const NEW_PASSWORD = "violet tractor mountain 9917";

/** (c) A session ended on one instance is refused on the other at once: no instance caches it. */
export function sessionsEndEverywhere(pair: ApiPair) {
  it("refuses a session logged out on the other instance", async () => {
    const email = await newUser(pair, "logout");
    const session = await logIn(pair.a.base, email);
    expect((await me(pair.b.base, session)).status).toBe(200);

    expect((await logout(pair.a.base, session)).status).toBe(204);
    expect((await me(pair.b.base, session)).status).toBe(401);
    expect((await refresh(pair.b.base, session)).status).toBe(401);
    expect((await me(pair.a.base, session)).status).toBe(401);
  });

  it("refuses the other sessions of a user whose password changed on the other instance", async () => {
    const email = await newUser(pair, "password");
    const kept = await logIn(pair.a.base, email);
    const other = await logIn(pair.b.base, email);
    expect((await me(pair.a.base, other)).status).toBe(200);

    expect((await changePassword(pair.a.base, kept, PASSWORD, NEW_PASSWORD)).status).toBe(204);
    expect((await me(pair.b.base, other)).status).toBe(401);
    expect((await refresh(pair.b.base, other)).status).toBe(401);
    // The session that changed it goes on, on either instance; the old password is refused.
    expect((await me(pair.b.base, kept)).status).toBe(200);
    expect((await login(pair.b.base, email)).status).toBe(401);
    expect((await login(pair.b.base, email, NEW_PASSWORD)).status).toBe(200);
  });
}
