import { apiKeyRoutes } from "@allot/contract/api-keys/routes";
import { authRoutes } from "@allot/contract/auth/routes";
import { credentialRoutes } from "@allot/contract/credentials/routes";
import { userRoutes } from "@allot/contract/users/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { type TestUser, useTestApp } from "../../test/testing/test-app";

const NEW_PASSWORD = "violet tractor mountain 9917";

/**
 * Credentials are cached for a second (decision 0045). Each case uses the credential twice first,
 * so the second use comes from the cache, then ends it and expects the very next request on the
 * same app to be refused: no window at all on the instance that served the ending request.
 */
describe.each(testEngines())("cached credentials end at once on the same instance (%s)", (engine) => {
  const t = useTestApp(engine);

  const me = (authorization: string) => t.as(authorization).call(userRoutes.getMe);
  async function usedTwice(authorization: string) {
    expect((await me(authorization)).statusCode).toBe(200);
    expect((await me(authorization)).statusCode).toBe(200);
  }

  async function session(user: TestUser) {
    const response = await t.anonymous.call(authRoutes.login, { email: user.email, password: user.password });
    expect(response.statusCode).toBe(200);
    const cookie = response.cookies.find((c) => c.name === "refresh_token")?.value as string;
    return { bearer: `Bearer ${response.json().access}`, cookie };
  }

  it("refuses a logged-out session's access token on the next request", async () => {
    const user = await t.user();
    const { bearer, cookie } = await session(user);
    await usedTwice(bearer);

    const logout = await t.anonymous.call(authRoutes.logout, {}, { cookies: { refresh_token: cookie } });
    expect(logout.statusCode).toBe(204);

    expect((await me(bearer)).statusCode).toBe(401);
    expect((await me(user.bearer)).statusCode).toBe(200);
  });

  it("refuses the other sessions on the next request after a password change", async () => {
    const user = await t.user();
    const other = await session(user);
    await usedTwice(other.bearer);
    await usedTwice(user.bearer);

    const change = await t.as(user).call(credentialRoutes.changePassword, {
      current_password: user.password,
      new_password: NEW_PASSWORD,
      confirm_password: NEW_PASSWORD,
    });
    expect(change.statusCode).toBe(204);

    expect((await me(other.bearer)).statusCode).toBe(401);
    expect((await me(user.bearer)).statusCode).toBe(200);
  });

  it("refuses a revoked API key on the next request, and every key after revoke-all", async () => {
    const user = await t.user();
    const created = await t.as(user).call(apiKeyRoutes.create, { name: "revoked" });
    expect(created.statusCode).toBe(201);
    const revoked = `Api-Key ${created.json().key}`;
    const kept = await t.apiKey(user, "kept");
    await usedTwice(revoked);
    await usedTwice(kept);

    const revoke = await t.as(user).call(apiKeyRoutes.revoke, { uuid: created.json().uuid });
    expect(revoke.statusCode).toBe(200);
    expect((await me(revoked)).statusCode).toBe(401);
    expect((await me(kept)).statusCode).toBe(200);

    expect((await t.as(user).call(apiKeyRoutes.revokeAll)).statusCode).toBe(200);
    expect((await me(kept)).statusCode).toBe(401);
  });
});
