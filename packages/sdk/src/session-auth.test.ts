import { describe, expect, it } from "vitest";
import { json, type Scripted, type Seen, useScriptedServer } from "../test/testing/scripted-server";
import { createClient } from "./client";
import type { Session } from "./session-auth";

/*
 * Login sessions against a scripted server: a 401 or an access token about to expire makes the
 * client refresh once through the refresh cookie, resend, and hand the rotated token over.
 */

const server = useScriptedServer();
const ME = { username: "ann" };
const nowSeconds = () => Math.floor(Date.now() / 1000);
const jwt = (name: string, expiresIn = 3600) =>
  `h.${Buffer.from(JSON.stringify({ sub: name, exp: nowSeconds() + expiresIn })).toString("base64url")}.s`;
const FRESH = jwt("fresh");
const refreshed = (token: string, cookie = "rt-2"): Scripted =>
  json(200, { access: token }, { "set-cookie": `refresh_token=${cookie}; Path=/api/token/; HttpOnly` });

/** A server that accepts only FRESH, and refreshes only rt-1 (rotating it to rt-2). */
const strictServer = async (request: Seen): Promise<Scripted> => {
  if (request.url === "/api/token/refresh/") {
    // Slow enough that concurrent calls would start their own refresh if the client let them.
    await new Promise((resolve) => setTimeout(resolve, 50));
    return request.headers.cookie === "refresh_token=rt-1"
      ? refreshed(FRESH)
      : json(401, { detail: "Token is invalid.", code: "token_not_valid" });
  }
  return request.headers.authorization === `Bearer ${FRESH}`
    ? json(200, ME)
    : json(401, { detail: "Token has expired.", code: "token_not_valid" });
};
const urls = () => server.seen.map((r) => r.url);

describe("a login session", () => {
  it("refreshes once on a 401, resends, and hands the rotated refresh token over", async () => {
    server.respond = strictServer;
    const sessions: Session[] = [];
    const client = createClient({
      baseUrl: server.baseUrl,
      auth: { access: jwt("revoked"), refreshToken: "rt-1" },
      onSession: (session) => {
        sessions.push(session);
      },
    });
    expect(await client.users.getMe()).toEqual(ME);
    expect(urls()).toEqual(["/api/v1/users/me/", "/api/token/refresh/", "/api/v1/users/me/"]);
    expect(server.seen[1]?.headers.authorization).toBeUndefined();
    expect(sessions).toEqual([{ access: FRESH, refreshToken: "rt-2" }]);
    expect(client.session).toEqual({ access: FRESH, refreshToken: "rt-2" });
  });

  it("shares one refresh among concurrent calls", async () => {
    server.respond = strictServer;
    const client = createClient({
      baseUrl: server.baseUrl,
      auth: { access: jwt("revoked"), refreshToken: "rt-1" },
    });
    const results = await Promise.all([client.users.getMe(), client.users.getMe(), client.users.getMe()]);
    expect(results).toEqual([ME, ME, ME]);
    expect(urls().filter((url) => url === "/api/token/refresh/")).toHaveLength(1);
  });

  it("refreshes before sending an access token that expires within the margin", async () => {
    server.respond = strictServer;
    const client = createClient({
      baseUrl: server.baseUrl,
      auth: { access: jwt("dying", 10), refreshToken: "rt-1" },
    });
    await Promise.all([client.users.getMe(), client.users.getMe()]);
    expect(urls()).toEqual(["/api/token/refresh/", "/api/v1/users/me/", "/api/v1/users/me/"]);
  });

  it("resumes from a stored refresh token alone", async () => {
    server.respond = strictServer;
    const client = createClient({ baseUrl: server.baseUrl, auth: { refreshToken: "rt-1" } });
    expect(await client.users.getMe()).toEqual(ME);
    expect(urls()).toEqual(["/api/token/refresh/", "/api/v1/users/me/"]);
  });

  it("throws the refresh's 401 when the session is over, without looping", async () => {
    server.respond = strictServer;
    const client = createClient({
      baseUrl: server.baseUrl,
      auth: { access: jwt("revoked"), refreshToken: "rt-old" },
    });
    await expect(client.users.getMe()).rejects.toMatchObject({
      status: 401,
      url: expect.stringContaining("/token/refresh/"),
    });
    expect(urls()).toEqual(["/api/v1/users/me/", "/api/token/refresh/"]);
  });

  it("never refreshes for a fixed bearer token or an API key", async () => {
    server.respond = strictServer;
    await expect(
      createClient({ baseUrl: server.baseUrl, auth: { bearer: jwt("revoked") } }).users.getMe(),
    ).rejects.toMatchObject({ status: 401 });
    await expect(
      createClient({ baseUrl: server.baseUrl, auth: { apiKey: "k" } }).users.getMe(),
    ).rejects.toMatchObject({
      status: 401,
    });
    expect(urls()).toEqual(["/api/v1/users/me/", "/api/v1/users/me/"]);
  });

  it("becomes the client's own after auth.login, and is forgotten after auth.logout", async () => {
    const sessions: Session[] = [];
    const client = createClient({ baseUrl: server.baseUrl, onSession: (s) => void sessions.push(s) });
    server.script = [refreshed(FRESH, "rt-1"), json(200, ME), { status: 204 }, json(401, { detail: "No." })];
    const session = await client.auth.login({ email: "ann@example.com", password: "pw" });
    expect(session).toEqual({ access: FRESH, refreshToken: "rt-1" });
    expect(sessions).toEqual([session]);
    expect(client.session).toEqual(session);
    await client.users.getMe();
    expect(server.seen[1]?.headers.authorization).toBe(`Bearer ${FRESH}`);

    await client.auth.logout();
    expect(server.seen[2]?.headers.cookie).toBe("refresh_token=rt-1");
    expect(client.session).toBeNull();
    await expect(client.users.getMe()).rejects.toMatchObject({ status: 401 });
    expect(server.seen[3]?.headers.authorization).toBeUndefined();
  });

  it("auth.refresh() without an argument refreshes the client's own session", async () => {
    server.respond = strictServer;
    const client = createClient({ baseUrl: server.baseUrl, auth: { access: FRESH, refreshToken: "rt-1" } });
    expect(await client.auth.refresh()).toEqual({ access: FRESH, refreshToken: "rt-2" });
    expect(client.session?.refreshToken).toBe("rt-2");
  });
});
