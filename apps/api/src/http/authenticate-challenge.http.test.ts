import { authRoutes } from "@allot/contract/auth/routes";
import { userRoutes } from "@allot/contract/users/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import type { LightMyRequestResponse } from "fastify";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../test/testing/test-app";

const PLAIN = 'Bearer realm="allot", Api-Key realm="allot"';
const INVALID_TOKEN =
  'error="invalid_token", error_description="The credential is unknown, revoked or expired."';

/** A 401 whose WWW-Authenticate is exactly `challenge`, and never repeats what was sent. */
function expectChallenge(response: LightMyRequestResponse, challenge: string, sent?: string) {
  expect(response.statusCode, response.body).toBe(401);
  expect(response.headers["www-authenticate"]).toBe(challenge);
  if (sent) expect(response.headers["www-authenticate"]).not.toContain(sent);
}

describe.each(testEngines())("WWW-Authenticate over HTTP (%s)", (engine) => {
  const t = useTestApp(engine);

  it("names both schemes, without an error, when no credential was sent", async () => {
    expectChallenge(await t.anonymous.call(userRoutes.getMe), PLAIN);
  });

  it("marks a refused bearer token invalid_token on the Bearer challenge", async () => {
    const token = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2VjcmV0LXNpZ25hdHVyZQ";
    expectChallenge(
      await t.as(`Bearer ${token}`).call(userRoutes.getMe),
      `Bearer realm="allot", ${INVALID_TOKEN}, Api-Key realm="allot"`,
      token,
    );
  });

  it("marks a refused API key invalid_token on the Api-Key challenge", async () => {
    const user = await t.user();
    const key = await t.apiKey(user, "k");
    const wrong = `${key.replace(/^Api-Key\s+/, "")}x`;
    expectChallenge(
      await t.as(`Api-Key ${wrong}`).call(userRoutes.getMe),
      `Bearer realm="allot", Api-Key realm="allot", ${INVALID_TOKEN}`,
      wrong,
    );
    // The scheme is matched whatever its case, as the header is read.
    expectChallenge(
      await t.as("api-key some-unknown-key").call(userRoutes.getMe),
      `Bearer realm="allot", Api-Key realm="allot", ${INVALID_TOKEN}`,
      "some-unknown-key",
    );
  });

  it("says invalid_request for a malformed header of a known scheme, nothing for an unknown scheme", async () => {
    expectChallenge(
      await t.as("Bearer").call(userRoutes.getMe),
      'Bearer realm="allot", error="invalid_request", error_description="The Authorization header is malformed.", Api-Key realm="allot"',
    );
    expectChallenge(await t.as("Basic dXNlcjpwYXNz").call(userRoutes.getMe), PLAIN, "dXNlcjpwYXNz");
    expectChallenge(await t.as("constructor abc").call(userRoutes.getMe), PLAIN);
  });

  it("challenges on the token endpoints' 401s too, and not on a success", async () => {
    expectChallenge(
      await t.anonymous.call(authRoutes.login, { email: "nobody@example.com", password: "wrong" }),
      PLAIN,
    );
    expectChallenge(await t.anonymous.call(authRoutes.refresh, {}), PLAIN);
    const user = await t.user();
    const me = await t.as(user).call(userRoutes.getMe);
    expect(me.statusCode).toBe(200);
    expect(me.headers["www-authenticate"]).toBeUndefined();
  });
});
