import { apiKeyRoutes } from "@allot/contract/api-keys/routes";
import { userRoutes } from "@allot/contract/users/routes";
import { apiKeys } from "@allot/db/schema/api-keys";
import { testEngines } from "@allot/db/testing/test-databases";
import { sha256 } from "@allot/domain/auth/token-digest";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type TestUser, useTestApp } from "../../../test/testing/test-app";
import type { CallInput } from "../../../test/testing/test-client";

const DAY_MS = 86_400_000;

describe.each(testEngines())("API keys over HTTP (%s)", (engine) => {
  const t = useTestApp(engine);

  async function create(user: TestUser, input: CallInput<typeof apiKeyRoutes.create>) {
    const response = await t.as(user).call(apiKeyRoutes.create, input);
    expect(response.statusCode).toBe(201);
    return response.json();
  }

  /** GET /users/me/ with the key. */
  const asKey = (key: string) => t.as(`Api-Key ${key}`).call(userRoutes.getMe);

  describe("create", () => {
    it("returns the plaintext key once and stores only its digest", async () => {
      const user = await t.user();
      const before = Date.now();
      const response = await t.as(user).call(apiKeyRoutes.create, { name: "importer" });
      expect(response.statusCode).toBe(201);
      const body = response.json();
      expect(Object.keys(body).sort()).toEqual(
        ["created_at", "expires_at", "key", "last_used_at", "name", "prefix", "revoked_at", "uuid"].sort(),
      );
      expect(body.key).toMatch(/^allot_[\w-]{43}$/);
      expect(body.prefix).toBe(body.key.slice(0, 12));
      expect(body).toMatchObject({
        name: "importer",
        expires_at: null,
        last_used_at: null,
        revoked_at: null,
      });
      expect(Date.parse(body.created_at)).toBeGreaterThanOrEqual(before - 1000);

      const [row] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, body.uuid));
      expect(row?.keyDigest).toBe(sha256(body.key));
      expect(Object.values(row ?? {})).not.toContain(body.key);

      const retrieved = await t.as(user).call(apiKeyRoutes.get, { uuid: body.uuid });
      expect(retrieved.statusCode).toBe(200);
      expect(retrieved.json<Record<string, unknown>>().key).toBeUndefined();
      expect(retrieved.json().prefix).toBe(body.prefix);
    });

    it("sets expires_at from expiry_days; null or omitted means never", async () => {
      const user = await t.user();
      const before = Date.now();
      const thirty = await create(user, { name: "monthly", expiry_days: 30 });
      const expires = Date.parse(thirty.expires_at as string);
      expect(expires).toBeGreaterThanOrEqual(before + 30 * DAY_MS - 1000);
      expect(expires).toBeLessThanOrEqual(Date.now() + 30 * DAY_MS + 1000);
      expect((await create(user, { name: "forever", expiry_days: null })).expires_at).toBeNull();

      const form = await t.inject({
        method: "POST",
        url: "/api/v1/users/me/api-keys/",
        headers: { authorization: user.bearer, "content-type": "application/x-www-form-urlencoded" },
        payload: "name=form&expiry_days=365",
      });
      expect(form.statusCode).toBe(201);
      expect(Date.parse(form.json().expires_at)).toBeGreaterThan(Date.now() + 364 * DAY_MS);
    });

    it("refuses a missing, blank or long name and an out-of-range expiry_days with 400", async () => {
      const user = await t.user();
      const cases: [Record<string, unknown>, string][] = [
        [{}, "name"],
        [{ name: "   " }, "name"],
        [{ name: "x".repeat(101) }, "name"],
        [{ name: "k", expiry_days: 0 }, "expiry_days"],
        [{ name: "k", expiry_days: 3651 }, "expiry_days"],
        [{ name: "k", expiry_days: "soon" }, "expiry_days"],
        [{ name: "k", expiry_days: 1.5 }, "expiry_days"],
      ];
      for (const [payload, field] of cases) {
        const response = await t.as(user).callUnchecked(apiKeyRoutes.create, payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
        expect(Object.keys(response.json())).toEqual([field]);
      }
    });
  });

  describe("authenticating with a key", () => {
    it("lets a key call GET /users/me/ and records last_used_at", async () => {
      const user = await t.user();
      const { key, uuid } = await create(user, { name: "reader" });
      const response = await asKey(key);
      expect(response.statusCode).toBe(200);
      expect(response.json().username).toBe(user.username);
      const retrieved = await t.as(user).call(apiKeyRoutes.get, { uuid });
      expect(retrieved.json().last_used_at).not.toBeNull();
    });

    it("refuses unknown, revoked and expired keys with 401 saying which", async () => {
      const user = await t.user();
      const unknown = await asKey("allot_this-key-was-never-issued");
      expect(unknown.statusCode).toBe(401);
      expect(unknown.json()).toEqual({
        detail: "Invalid API key: unknown key.",
        code: "authentication_failed",
      });

      const revoked = await create(user, { name: "to revoke" });
      await t.as(user).call(apiKeyRoutes.revoke, { uuid: revoked.uuid });
      const revokedResponse = await asKey(revoked.key);
      expect(revokedResponse.statusCode).toBe(401);
      expect(revokedResponse.json<{ detail: string }>().detail).toMatch(/revoked/);

      const expired = await create(user, { name: "old", expiry_days: 1 });
      await t.db
        .update(apiKeys)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(apiKeys.id, expired.uuid));
      const expiredResponse = await asKey(expired.key);
      expect(expiredResponse.statusCode).toBe(401);
      expect(expiredResponse.json<{ detail: string }>().detail).toMatch(/expired/);
    });

    it("refuses every API-key endpoint to an API key with 403", async () => {
      const user = await t.user();
      const { key, uuid } = await create(user, { name: "machine" });
      const byKey = t.as(`Api-Key ${key}`);
      const attempts = [
        byKey.call(apiKeyRoutes.list),
        byKey.call(apiKeyRoutes.create, { name: "x" }),
        byKey.call(apiKeyRoutes.revokeAll),
        byKey.call(apiKeyRoutes.get, { uuid }),
        byKey.call(apiKeyRoutes.revoke, { uuid }),
      ];
      for (const response of await Promise.all(attempts)) {
        expect(response.statusCode).toBe(403);
        expect(response.json<{ code: string }>().code).toBe("interactive_login_required");
      }
      // Nothing happened: the key still works and is the only one.
      expect((await asKey(key)).statusCode).toBe(200);
      const list = await t.as(user).call(apiKeyRoutes.list);
      expect(list.json().count).toBe(1);
    });

    it("answers 401 to anonymous callers", async () => {
      expect((await t.anonymous.call(apiKeyRoutes.list)).statusCode).toBe(401);
      expect((await t.anonymous.call(apiKeyRoutes.create, { name: "x" })).statusCode).toBe(401);
    });
  });

  describe("list and retrieve", () => {
    it("lists active, expired and revoked keys newest first, paginated, without key material", async () => {
      const user = await t.user();
      const other = await t.user();
      await create(other, { name: "not mine" });
      const oldest = await create(user, { name: "first" });
      const middle = await create(user, { name: "second", expiry_days: 7 });
      const newest = await create(user, { name: "third" });
      await t.db
        .update(apiKeys)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(apiKeys.id, middle.uuid));
      await t.as(user).call(apiKeyRoutes.revoke, { uuid: oldest.uuid });

      const response = await t.as(user).call(apiKeyRoutes.list);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.count).toBe(3);
      expect(body.next).toBeNull();
      expect(body.results.map((k: { uuid: string }) => k.uuid)).toEqual([
        newest.uuid,
        middle.uuid,
        oldest.uuid,
      ]);
      expect(body.results.every((k: Record<string, unknown>) => !("key" in k))).toBe(true);
      const revoked = body.results[2];
      if (!revoked) throw new Error("no third key");
      expect(revoked.revoked_at).not.toBeNull();

      const page = await t.as(user).call(apiKeyRoutes.list, { page: 2, page_size: 2 });
      expect(page.json().results.map((k: { uuid: string }) => k.uuid)).toEqual([oldest.uuid]);
      expect(page.json().previous).toContain("page=1");
      const past = await t.as(user).call(apiKeyRoutes.list, { page: 3, page_size: 2 });
      expect(past.statusCode).toBe(404);
    });

    it("answers 404 for another user's key, an unknown uuid and a malformed one", async () => {
      const user = await t.user();
      const other = await t.user();
      const theirs = await create(other, { name: "theirs" });
      for (const id of [theirs.uuid, "00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
        const response = await t.as(user).call(apiKeyRoutes.get, { uuid: id });
        expect(response.statusCode).toBe(404);
        expect(response.json<{ code: string }>().code).toBe("not_found");
        const revoke = await t.as(user).call(apiKeyRoutes.revoke, { uuid: id });
        expect(revoke.statusCode).toBe(404);
      }
      expect((await asKey(theirs.key)).statusCode).toBe(200);
    });
  });

  describe("revoke", () => {
    it("revokes a key once; revoking it again is 400", async () => {
      const user = await t.user();
      const { uuid, key } = await create(user, { name: "once" });
      const response = await t.as(user).call(apiKeyRoutes.revoke, { uuid });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ uuid, name: "once" });
      expect(response.json().revoked_at).not.toBeNull();
      expect(response.json<Record<string, unknown>>().key).toBeUndefined();
      expect((await asKey(key)).statusCode).toBe(401);

      const again = await t.as(user).call(apiKeyRoutes.revoke, { uuid });
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({ non_field_errors: ["This API key has already been revoked."] });
    });

    it("revoke-all revokes the caller's active keys and counts them; 0 when none is active", async () => {
      const user = await t.user();
      const other = await t.user();
      const theirs = await create(other, { name: "theirs" });
      const a = await create(user, { name: "a" });
      const b = await create(user, { name: "b", expiry_days: 90 });
      const revoked = await create(user, { name: "revoked" });
      const expired = await create(user, { name: "expired", expiry_days: 1 });
      await t.as(user).call(apiKeyRoutes.revoke, { uuid: revoked.uuid });
      await t.db
        .update(apiKeys)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(apiKeys.id, expired.uuid));

      const response = await t.as(user).call(apiKeyRoutes.revokeAll);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ revoked: 2 });
      for (const key of [a.key, b.key])
        expect((await asKey(key)).json<{ detail: string }>().detail).toMatch(/revoked/);
      expect((await asKey(theirs.key)).statusCode).toBe(200);

      // Raw: the path without its trailing slash is served too.
      const none = await t.inject({
        method: "POST",
        url: `/api/v1/users/me/api-keys/revoke-all`,
        headers: { authorization: user.bearer },
      });
      expect(none.json()).toEqual({ revoked: 0 });
    });
  });
});
