import { authRoutes } from "@allot/contract/auth/routes";
import { userRoutes } from "@allot/contract/users/routes";
import { users } from "@allot/db/schema/users";
import { eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import type { useTestApp } from "./test-app";

type TestApp = ReturnType<typeof useTestApp>;

/** A strong password zxcvbn scores 4; each call gives a different one. */
let passwords = 0;
export const strongPassword = () => `plum sofa quietly river ${++passwords}`;

/** The `refresh_token` a response set, if any. */
export const refreshCookieOf = (response: LightMyRequestResponse) =>
  response.cookies.find((c) => c.name === "refresh_token")?.value;

/** The helpers the credential flows share: a login with its cookie, and what proves a session live. */
export function credentialsKit(t: TestApp) {
  const kit = {
    /** A password login: its `Authorization` header value and its refresh cookie. */
    async session(email: string, password: string) {
      const response = await kit.login(email, password);
      expect(response.statusCode, response.body).toBe(200);
      return { bearer: `Bearer ${response.json().access}`, cookie: refreshCookieOf(response) as string };
    },
    login: (email: string, password: string) => t.anonymous.call(authRoutes.login, { email, password }),
    me: (authorization: string) => t.as(authorization).call(userRoutes.getMe),
    refresh: (cookie: string) =>
      t.anonymous.call(authRoutes.refresh, {}, { cookies: { refresh_token: cookie } }),
    /** Status of /users/me/ and of a refresh: [200, 200] for a live session, [401, 401] for an ended one. */
    async sessionStatus(session: { bearer: string; cookie: string }) {
      return [(await kit.me(session.bearer)).statusCode, (await kit.refresh(session.cookie)).statusCode];
    },
    /** An invited placeholder: username and email the address, no password, inactive. */
    async placeholder(email: string) {
      const [row] = await t.db
        .insert(users)
        .values({ username: email.toLowerCase(), email, passwordHash: null, isActive: false })
        .returning();
      if (!row) throw new Error("placeholder insert returned nothing");
      return row;
    },
    async dropPassword(userId: number) {
      await t.db.update(users).set({ passwordHash: null }).where(eq(users.id, userId));
    },
  };
  return kit;
}

/** The token at the end of an emailed `/links/…/{token}[/action]` link. */
export function tokenInLink(link: string, prefix: string): string {
  const rest = link.slice(link.indexOf(prefix) + prefix.length);
  return rest.split("/")[0] as string;
}
