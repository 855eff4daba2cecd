import { internalContext } from "@allot/domain/shared/use-case-context";
import { createUser } from "@allot/domain/users/create-user";
import type { ApiPair } from "./api-pair";

export const PASSWORD = "correct horse battery staple";

let users = 0;
/** A user made the admin way, in the shared database. */
export async function newUser(pair: ApiPair, label: string) {
  users += 1;
  const email = `${label}${users}-${Date.now()}@example.com`;
  await createUser(internalContext(pair.db, "cli"), { email, password: PASSWORD });
  return email;
}

export interface Session {
  /** `Authorization` header value. */
  bearer: string;
  /** The refresh cookie, as a `Cookie` header value. */
  cookie: string;
}

export function login(base: string, email: string, password = PASSWORD) {
  return fetch(`${base}/api/token/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
}

/** The refresh cookie a response sets (`name=value`). */
function refreshCookie(response: Response): string {
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith("refresh_token="));
  if (!cookie) throw new Error("no refresh cookie set");
  return cookie.split(";")[0] as string;
}

export async function logIn(base: string, email: string, password = PASSWORD): Promise<Session> {
  const response = await login(base, email, password);
  if (response.status !== 200) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  const { access } = (await response.json()) as { access: string };
  return { bearer: `Bearer ${access}`, cookie: refreshCookie(response) };
}

export const me = (base: string, session: Session) =>
  fetch(`${base}/api/v1/users/me/`, { headers: { authorization: session.bearer } });

export const refresh = (base: string, session: Session) =>
  fetch(`${base}/api/token/refresh/`, { method: "POST", headers: { cookie: session.cookie } });

export const logout = (base: string, session: Session) =>
  fetch(`${base}/api/token/logout/`, { method: "POST", headers: { cookie: session.cookie } });

export const changePassword = (base: string, session: Session, from: string, to: string) =>
  fetch(`${base}/api/v1/users/me/change-password/`, {
    method: "POST",
    headers: { authorization: session.bearer, "content-type": "application/json" },
    body: JSON.stringify({ current_password: from, new_password: to, confirm_password: to }),
  });
