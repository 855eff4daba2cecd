import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { userRoutes } from "@allot/contract/users/routes";
import { users } from "@allot/db/schema/users";
import { testEngines } from "@allot/db/testing/test-databases";
import { createBank } from "@allot/domain/banks/create-bank";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type TestUser, useTestApp } from "../../../test/testing/test-app";
import type { CallInput } from "../../../test/testing/test-client";

describe.each(testEngines())("users over HTTP (%s)", (engine) => {
  const t = useTestApp(engine);
  let bank: string;

  beforeAll(async () => {
    bank = (await createBank(internalContext(t.db, "cli"), { name: "Users Test Bank", currency: "USD" })).id;
  });

  const accountOf = async (user: TestUser, name = "Checking") => {
    const response = await t.as(user).call(bankAccountRoutes.create, { name, bank });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id as string;
  };
  const patchMe = (user: TestUser, input: CallInput<typeof userRoutes.updateMe>) =>
    t.as(user).call(userRoutes.updateMe, input);

  describe("/users/me/", () => {
    it("shows the caller, to a login and to an API key alike", async () => {
      const user = await t.user({ name: "Ada" });
      const expected = {
        username: user.username,
        email: user.email,
        name: "Ada",
        url: `http://allot.test/api/v1/users/${encodeURIComponent(user.username)}/`,
        default_bank_account: null,
        timezone: "America/Los_Angeles",
        has_usable_password: true,
      };
      const me = await t.as(user).call(userRoutes.getMe);
      expect(me.statusCode).toBe(200);
      expect(me.json()).toEqual(expected);
      const byKey = await t.as(await t.apiKey(user)).call(userRoutes.getMe);
      expect(byKey.statusCode).toBe(200);
      expect(byKey.json()).toEqual(expected);
      expect((await t.anonymous.call(userRoutes.getMe)).statusCode).toBe(401);
    });

    it("updates name, timezone and default bank account; null clears the default", async () => {
      const user = await t.user();
      const account = await accountOf(user);
      const response = await patchMe(user, {
        name: "  Grace Hopper ",
        timezone: "Europe/Paris",
        default_bank_account: account,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({
        name: "Grace Hopper",
        timezone: "Europe/Paris",
        default_bank_account: account,
      });
      expect((await t.as(user).call(userRoutes.getMe)).json()).toEqual(response.json());

      const partial = await patchMe(user, { timezone: "UTC" });
      expect(partial.json()).toMatchObject({
        name: "Grace Hopper",
        timezone: "UTC",
        default_bank_account: account,
      });

      const cleared = await patchMe(user, { default_bank_account: null });
      expect(cleared.statusCode).toBe(200);
      expect(cleared.json()).toMatchObject({ default_bank_account: null, timezone: "UTC" });

      const unchanged = await patchMe(user, {});
      expect(unchanged.statusCode).toBe(200);
      expect(unchanged.json()).toEqual(cleared.json());
    });

    it("takes form-encoded and multipart bodies; an empty default_bank_account clears it", async () => {
      const user = await t.user();
      const account = await accountOf(user);
      const form = await t.inject({
        method: "PATCH",
        url: "/api/v1/users/me/",
        headers: { authorization: user.bearer, "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams({ default_bank_account: account, timezone: "asia/tokyo" }).toString(),
      });
      expect(form.statusCode, form.body).toBe(200);
      expect(form.json()).toMatchObject({ default_bank_account: account, timezone: "Asia/Tokyo" });

      const boundary = "----allot-users-boundary";
      const multipart = await t.inject({
        method: "PATCH",
        url: "/api/v1/users/me/",
        headers: { authorization: user.bearer, "content-type": `multipart/form-data; boundary=${boundary}` },
        payload:
          `--${boundary}\r\nContent-Disposition: form-data; name="default_bank_account"\r\n\r\n\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nMulti Part\r\n--${boundary}--\r\n`,
      });
      expect(multipart.statusCode, multipart.body).toBe(200);
      expect(multipart.json()).toMatchObject({ default_bank_account: null, name: "Multi Part" });
    });

    it("refuses a time zone that is not an IANA name with 400 on timezone", async () => {
      const user = await t.user();
      for (const timezone of ["Mars/Olympus", "+02:00", "", "Pacific Standard Time"]) {
        const response = await patchMe(user, { timezone });
        expect(response.statusCode, timezone).toBe(400);
        expect(Object.keys(response.json())).toEqual(["timezone"]);
      }
      expect((await t.as(user).call(userRoutes.getMe)).json().timezone).toBe("America/Los_Angeles");
    });

    it("refuses a default account the user does not own, or that does not exist, with 400", async () => {
      const user = await t.user();
      const other = await t.user();
      const theirs = await accountOf(other);
      for (const id of [theirs, "00000000-0000-4000-8000-000000000000"]) {
        const response = await patchMe(user, { default_bank_account: id });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({
          default_bank_account: [`Invalid pk "${id}" - object does not exist.`],
        });
      }
      const malformed = await patchMe(user, { default_bank_account: "nope" });
      expect(malformed.statusCode).toBe(400);
      expect(Object.keys(malformed.json())).toEqual(["default_bank_account"]);
      const tooLong = await patchMe(user, { name: "n".repeat(151) });
      expect(tooLong.statusCode).toBe(400);
      expect(Object.keys(tooLong.json())).toEqual(["name"]);
    });

    it("needs an interactive login to write: an API key gets 403, no credentials 401", async () => {
      const user = await t.user();
      const key = await t.apiKey(user);
      const response = await t.as(key).call(userRoutes.updateMe, { name: "Machine" });
      expect(response.statusCode).toBe(403);
      expect(response.json<{ code: string }>().code).toBe("interactive_login_required");
      expect((await t.anonymous.call(userRoutes.updateMe, { name: "x" })).statusCode).toBe(401);
      expect((await t.as(user).call(userRoutes.getMe)).json().name).toBe("");
    });

    it("reports has_usable_password false for an account without a password", async () => {
      const staff = await t.user({ staff: true });
      const placeholder = await t.user();
      await t.db.update(users).set({ passwordHash: null }).where(eq(users.id, placeholder.id));
      const response = await t.as(staff).call(userRoutes.get, { username: placeholder.username });
      expect(response.statusCode).toBe(200);
      expect(response.json().has_usable_password).toBe(false);
    });
  });

  describe("staff endpoints", () => {
    it("lists users for staff, ordered and paginated", async () => {
      const staff = await t.user({ staff: true });
      const list = (query: CallInput<typeof userRoutes.list> = {}) =>
        t.as(staff).call(userRoutes.list, query);
      const all = await list();
      expect(all.statusCode, all.body).toBe(200);
      const body = all.json();
      expect(body.count).toBeGreaterThanOrEqual(1);
      const usernames = body.results.map((u: { username: string }) => u.username);
      expect(usernames).toEqual([...usernames].sort());
      expect(usernames).toContain(staff.username);
      expect(body.results.find((u: { username: string }) => u.username === staff.username)).toMatchObject({
        email: staff.email,
        has_usable_password: true,
      });

      const descending = (await list({ ordering: "-username" }))
        .json()
        .results.map((u: { username: string }) => u.username);
      expect(descending).toEqual([...usernames].reverse());
      const byCreation = (await list({ ordering: "-created_at" })).json().results;
      expect(byCreation[0]?.username).toBe(staff.username);

      const count = body.count as number;
      const first = (await list({ page_size: 1 })).json();
      expect(first.results).toHaveLength(1);
      expect(first.count).toBe(count);
      expect(first.next).toContain("page=2");
      const last = await list({ page_size: 1, page: count });
      expect(last.statusCode).toBe(200);
      expect(last.json().next).toBeNull();
      const past = await list({ page_size: 1, page: count + 1 });
      expect(past.statusCode).toBe(404);
      expect(past.json()).toEqual({ detail: "Invalid page.", code: "not_found" });
      const capped = await list({ page_size: 100000 });
      expect(capped.statusCode).toBe(200);
      expect(capped.json().results).toHaveLength(count);
      const bad = await t.as(staff).callUnchecked(userRoutes.list, { ordering: "password" });
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(bad.json())).toEqual(["ordering"]);
    });

    it("retrieves a user by username, with the @ encoded or not", async () => {
      const staff = await t.user({ staff: true });
      const target = await t.user({ name: "Target" });
      const encoded = await t.as(staff).call(userRoutes.get, { username: target.username });
      expect(encoded.statusCode, encoded.body).toBe(200);
      expect(encoded.json()).toMatchObject({
        username: target.username,
        email: target.email,
        name: "Target",
      });
      // Raw: the client always encodes the @ (%40); this path carries it as typed.
      const raw = await t.inject({
        url: `/api/v1/users/${target.username}/`,
        headers: { authorization: staff.bearer },
      });
      expect(raw.statusCode).toBe(200);
      expect(raw.json()).toEqual(encoded.json());
      // The url a user carries leads back to the same user (raw: its path, as given).
      const self = await t.inject({
        url: new URL(encoded.json().url).pathname,
        headers: { authorization: staff.bearer },
      });
      expect(self.json()).toEqual(encoded.json());

      const unknown = await t.as(staff).call(userRoutes.get, { username: "nobody@example.com" });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json<{ code: string }>().code).toBe("not_found");
      const tooLong = await t.as(staff).call(userRoutes.get, { username: "x".repeat(151) });
      expect(tooLong.statusCode).toBe(404);
    });

    it("updates another user with PUT and PATCH; the default account must be the target's own", async () => {
      const staff = await t.user({ staff: true });
      const target = await t.user();
      const targetAccount = await accountOf(target);
      const staffAccount = await accountOf(staff);
      const write = (
        method: "PUT" | "PATCH",
        fields: Omit<CallInput<typeof userRoutes.update>, "username">,
      ) =>
        t.as(staff).call(method === "PUT" ? userRoutes.replace : userRoutes.update, {
          username: target.username,
          ...fields,
        });

      const patched = await write("PATCH", {
        timezone: "Australia/Sydney",
        default_bank_account: targetAccount,
      });
      expect(patched.statusCode, patched.body).toBe(200);
      expect(patched.json()).toMatchObject({
        username: target.username,
        timezone: "Australia/Sydney",
        default_bank_account: targetAccount,
      });

      const put = await write("PUT", {
        name: "Renamed by staff",
        timezone: "Europe/Berlin",
        default_bank_account: null,
      });
      expect(put.statusCode, put.body).toBe(200);
      expect(put.json()).toMatchObject({
        name: "Renamed by staff",
        timezone: "Europe/Berlin",
        default_bank_account: null,
      });

      // The user is the one in the path; a username (read-only) in the body changes nothing.
      // Raw: the client takes username for the path, so only a raw body can carry a different one.
      const renamed = await t.inject({
        method: "PATCH",
        url: `/api/v1/users/${encodeURIComponent(target.username)}/`,
        headers: { authorization: staff.bearer },
        payload: { username: staff.username, name: "Path wins" },
      });
      expect(renamed.json()).toMatchObject({ username: target.username, name: "Path wins" });

      const staffs = await write("PATCH", { default_bank_account: staffAccount });
      expect(staffs.statusCode).toBe(400);
      expect(Object.keys(staffs.json())).toEqual(["default_bank_account"]);
      expect(staffs.json<{ default_bank_account: string[] }>().default_bank_account[0]).toMatch(
        /does not exist/,
      );
      const badZone = await write("PUT", { timezone: "Nowhere/Town" });
      expect(badZone.statusCode).toBe(400);
      expect(Object.keys(badZone.json())).toEqual(["timezone"]);

      const seen = await t.as(target).call(userRoutes.getMe);
      expect(seen.json()).toMatchObject({
        name: "Path wins",
        timezone: "Europe/Berlin",
        default_bank_account: null,
      });

      for (const method of ["PUT", "PATCH"] as const) {
        const unknown = await t.as(staff).call(method === "PUT" ? userRoutes.replace : userRoutes.update, {
          username: "ghost@example.com",
          name: "x",
        });
        expect(unknown.statusCode, method).toBe(404);
      }
    });

    it("refuses non-staff callers with 403, API keys (even staff ones) with 403, anonymous with 401", async () => {
      const user = await t.user();
      const staff = await t.user({ staff: true });
      const staffKey = await t.apiKey(staff);
      const { username } = staff;
      for (const [route, input] of [
        [userRoutes.list, {}],
        [userRoutes.get, { username }],
        [userRoutes.replace, { username, name: "x" }],
        [userRoutes.update, { username, name: "x" }],
      ] as const) {
        const label = `${route.method} ${route.path}`;
        const nonStaff = await t.as(user).callUnchecked(route, input);
        expect(nonStaff.statusCode, label).toBe(403);
        expect(nonStaff.json<{ code: string }>().code, label).toBe("permission_denied");
        const byKey = await t.as(staffKey).callUnchecked(route, input);
        expect(byKey.statusCode, label).toBe(403);
        expect(byKey.json<{ code: string }>().code, label).toBe("interactive_login_required");
        expect((await t.anonymous.callUnchecked(route, input)).statusCode, label).toBe(401);
      }
      // Nothing was changed by the refused writes.
      expect((await t.as(staff).call(userRoutes.getMe)).json().name).toBe("");
    });
  });
});
