import { randomBytes } from "node:crypto";
import { apiKeys } from "@allot/db/schema/api-keys";
import { users } from "@allot/db/schema/users";
import { createAccessTokens } from "@allot/domain/auth/access-tokens";
import { eq } from "drizzle-orm";
import { type TestUser, testConfig, type useTestApp } from "../testing/test-app";

/**
 * The callers of the authorisation matrix, in the order the matrix runs them. The first nine can
 * never pass (each is 401 with its own message); the last four are live credentials of users who
 * do not own the target objects (a staff user's key is still a key: no staff or interactive route). `other_user_token` runs last: as that user, revoke-all and
 * change-password are allowed and would end `other_user_key` and other sessions of the user.
 */
export const CREDENTIAL_KINDS = [
  "none",
  "unsupported_scheme",
  "malformed_token",
  "unknown_key",
  "expired_token",
  "ended_session",
  "expired_key",
  "revoked_key",
  "inactive_user_key",
  "other_user_key",
  "staff_key",
  "staff_non_owner",
  "other_user_token",
] as const;

export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];

/** The 401 body each refused credential gets: its message says what is wrong with it. */
export const REFUSED: Partial<Record<CredentialKind, { detail: string; code: string }>> = {
  none: { detail: "Authentication credentials were not provided.", code: "not_authenticated" },
  unsupported_scheme: {
    detail: "Unsupported authorization scheme 'Basic': use Bearer or Api-Key.",
    code: "authentication_failed",
  },
  malformed_token: { detail: "Token is invalid.", code: "token_not_valid" },
  unknown_key: { detail: "Invalid API key: unknown key.", code: "authentication_failed" },
  expired_token: { detail: "Token has expired.", code: "token_not_valid" },
  ended_session: { detail: "Token is invalid: its session has ended.", code: "token_not_valid" },
  expired_key: { detail: "Invalid API key: the key has expired.", code: "authentication_failed" },
  revoked_key: { detail: "Invalid API key: the key has been revoked.", code: "authentication_failed" },
  inactive_user_key: { detail: "User is inactive.", code: "authentication_failed" },
};

type Harness = ReturnType<typeof useTestApp>;

/** The session id inside a Bearer access token (its `sid` claim). */
const sessionOf = (bearer: string): string => {
  const payload = bearer.replace(/^Bearer /, "").split(".")[1] ?? "";
  return JSON.parse(Buffer.from(payload, "base64url").toString("utf8")).sid;
};

/** The owner's API key, made over HTTP, and its uuid (the newest key in the owner's list). */
async function ownerKey(t: Harness, owner: TestUser, name: string) {
  const header = await t.apiKey(owner, name);
  const list = await t.inject({
    url: "/api/v1/users/me/api-keys/?page_size=500",
    headers: { authorization: owner.bearer },
  });
  const row = list.json().results.find((key: { name: string }) => key.name === name);
  if (!row) throw new Error(`key ${name} not listed: ${list.body}`);
  return { header, uuid: row.uuid as string };
}

/**
 * One `Authorization` value per kind (null: no header). The refused ones belong to the owner
 * where they can, so the matrix shows a dead credential of the very user who owns everything is
 * still refused: a JWT signed with the server's secret for a real session but already expired, a
 * token of a session the owner logged out of, the owner's keys expired and revoked over HTTP.
 */
export async function makeCredentials(
  t: Harness,
  owner: TestUser,
  other: TestUser,
  staff: TestUser,
): Promise<Record<CredentialKind, string | null>> {
  const tokens = createAccessTokens(testConfig().jwtSecret);
  const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
  const expiredToken = await tokens.sign(
    { userId: owner.id, sessionId: sessionOf(owner.bearer) },
    twoHoursAgo,
  );

  const login = await t.inject({
    method: "POST",
    url: "/api/token/",
    payload: { email: owner.email, password: owner.password },
  });
  const refresh = login.cookies.find((cookie) => cookie.name === "refresh_token");
  const logout = await t.inject({
    method: "POST",
    url: "/api/token/logout/",
    cookies: { refresh_token: refresh?.value ?? "" },
  });
  if (login.statusCode !== 200 || logout.statusCode !== 204)
    throw new Error(`ended session: ${login.statusCode} ${logout.statusCode}`);

  const revoked = await ownerKey(t, owner, "matrix revoked");
  const revoke = await t.inject({
    method: "POST",
    url: `/api/v1/users/me/api-keys/${revoked.uuid}/revoke/`,
    headers: { authorization: owner.bearer },
  });
  if (revoke.statusCode !== 200) throw new Error(`revoke: ${revoke.statusCode} ${revoke.body}`);
  // Time cannot pass over HTTP: the key is made with a lifetime, which then ends in the database.
  const expired = await ownerKey(t, owner, "matrix expired");
  await t.db.update(apiKeys).set({ expiresAt: twoHoursAgo }).where(eq(apiKeys.id, expired.uuid));
  // A user deactivated by an administrator (no endpoint does it): their live key stops working.
  const inactive = await t.user({ name: "Ina Inactive" });
  const inactiveKey = await t.apiKey(inactive, "matrix inactive");
  await t.db.update(users).set({ isActive: false }).where(eq(users.id, inactive.id));

  return {
    none: null,
    unsupported_scheme: `Basic ${Buffer.from(`${owner.email}:${owner.password}`).toString("base64")}`,
    malformed_token: "Bearer not-a-jwt",
    unknown_key: `Api-Key allot_${randomBytes(32).toString("base64url")}`,
    expired_token: `Bearer ${expiredToken}`,
    ended_session: `Bearer ${login.json().access}`,
    expired_key: expired.header,
    revoked_key: revoked.header,
    inactive_user_key: inactiveKey,
    other_user_key: await t.apiKey(other, "matrix other"),
    staff_key: await t.apiKey(staff, "matrix staff"),
    staff_non_owner: staff.bearer,
    other_user_token: other.bearer,
  };
}
