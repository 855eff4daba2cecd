import { credentialRoutes } from "@allot/contract/credentials/routes";
import { users } from "@allot/db/schema/users";
import { testEngines } from "@allot/db/testing/test-databases";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type TestUser, useTestApp } from "../../test/testing/test-app";
import { useTestMailbox } from "../../test/testing/test-mailbox";

describe.each(testEngines())("link pages: email change (%s)", (engine) => {
  const t = useTestApp(engine);
  const mailbox = useTestMailbox(() => t.db);
  let counter = 0;

  /** A change requested over HTTP; the paths of the confirm (new address) and revoke (old) links. */
  async function requestChange(user: TestUser) {
    counter += 1;
    const newEmail = `changed${counter}-${Date.now()}@example.com`;
    const requested = await t.as(user).call(credentialRoutes.changeEmail, { new_email: newEmail });
    expect(requested.statusCode, requested.body).toBe(201);
    const pathTo = async (address: string, action: string) => {
      const message = (await mailbox.messagesTo(address)).find((m) =>
        m.text.includes("/links/email-change/"),
      );
      if (!message) throw new Error(`no email-change link to ${address}`);
      const path = new URL(mailbox.linkIn(message, "/links/email-change/")).pathname;
      expect(path.endsWith(`/${action}`)).toBe(true);
      return path;
    };
    return {
      newEmail,
      confirm: await pathTo(newEmail, "confirm"),
      revoke: await pathTo(user.email, "revoke"),
    };
  }
  const emailOf = async (user: TestUser) =>
    (await t.db.select({ email: users.email }).from(users).where(eq(users.id, user.id)))[0]?.email;
  const press = (path: string) =>
    t.inject({
      method: "POST",
      url: path,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "",
    });

  it("shows one button posting back to the same path; GET changes nothing", async () => {
    const user = await t.user();
    const change = await requestChange(user);
    for (const path of [change.confirm, change.revoke, change.confirm]) {
      const page = await t.inject({ url: path });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(`<form method="post" action="${path}">`);
      expect(page.body.match(/<button/g)).toHaveLength(1);
    }
    expect(await emailOf(user)).toBe(user.email);
    expect((await press(change.confirm)).statusCode).toBe(200);
  });

  it("confirms, then revokes (restoring the old address); a used link is refused plainly", async () => {
    const user = await t.user();
    const change = await requestChange(user);
    const confirmed = await press(change.confirm);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.body).toContain("Email address changed");
    expect(await emailOf(user)).toBe(change.newEmail);

    const again = await press(change.confirm);
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain("The email address could not be confirmed");
    expect(again.body).toContain('role="alert"');

    const revoked = await press(change.revoke);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.body).toContain("Email change undone");
    expect(await emailOf(user)).toBe(user.email);
    expect((await press(change.revoke)).statusCode).toBe(400);
  });

  it("answers unknown tokens with the 404 page", async () => {
    for (const action of ["confirm", "revoke"]) {
      const page = await press(`/links/email-change/nobody-issued-this/${action}`);
      expect(page.statusCode, action).toBe(404);
      expect(page.body).toContain("Link not found");
    }
  });
});
