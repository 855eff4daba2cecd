import { credentialRoutes } from "@allot/contract/credentials/routes";
import { passwordResetTokens } from "@allot/db/schema/credential-tokens";
import { testEngines } from "@allot/db/testing/test-databases";
import { sha256 } from "@allot/domain/auth/token-digest";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../test/testing/test-app";
import { useTestMailbox } from "../../test/testing/test-mailbox";

const STRONG = "plum sofa quietly river lantern";

describe.each(testEngines())("link pages: password reset (%s)", (engine) => {
  const t = useTestApp(engine);
  const mailbox = useTestMailbox(() => t.db);

  /** A reset requested the public way; the emailed link's path and its token. */
  async function resetLink(email: string) {
    const requested = await t.anonymous.call(credentialRoutes.requestPasswordReset, { email });
    expect(requested.statusCode).toBe(204);
    const path = new URL(mailbox.linkIn(await mailbox.latestTo(email), "/links/password-reset/")).pathname;
    return { path, token: decodeURIComponent(path.split("/").pop() ?? "") };
  }
  const submit = (path: string, fields: Record<string, string>) =>
    t.inject({
      method: "POST",
      url: path,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams(fields).toString(),
    });

  it("shows the form on GET without using the link", async () => {
    const user = await t.user();
    const { path } = await resetLink(user.email);
    for (let i = 0; i < 2; i += 1) {
      const page = await t.inject({ url: path });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(`<form class="stacked" method="post" action="${path}">`);
      expect(page.body).toContain('name="new_password"');
      expect(page.body).toContain('name="confirm_password"');
    }
    const done = await submit(path, { new_password: STRONG, confirm_password: STRONG });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain("Password set");
    await expect(t.login(user.email, STRONG)).resolves.toMatch(/^Bearer /);
  });

  it("puts the API's field errors beside their fields, never echoing the passwords", async () => {
    const user = await t.user();
    const { path } = await resetLink(user.email);
    const weak = await submit(path, { new_password: "password", confirm_password: "password" });
    expect(weak.statusCode).toBe(400);
    expect(weak.body).toMatch(/<p class="error" id="new_password-error">[^<]+<\/p>/);
    expect(weak.body).toContain('aria-describedby="new_password-error"');
    expect(weak.body).not.toContain('value="');

    const mismatch = await submit(path, { new_password: STRONG, confirm_password: `${STRONG}?` });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.body).toMatch(/<p class="error" id="confirm_password-error">[^<]+<\/p>/);
    expect(mismatch.body).not.toContain(STRONG);

    const empty = await t.inject({ method: "POST", url: path });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('id="new_password-error"');

    // The link survived the refusals.
    expect((await submit(path, { new_password: STRONG, confirm_password: STRONG })).statusCode).toBe(200);
  });

  it("explains a used or expired link, and answers an unknown one with the 404 page", async () => {
    const user = await t.user();
    const used = await resetLink(user.email);
    await submit(used.path, { new_password: STRONG, confirm_password: STRONG });
    const again = await submit(used.path, { new_password: `${STRONG} 2`, confirm_password: `${STRONG} 2` });
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain("The password could not be set");
    expect(again.body).toContain("already been used");
    expect(again.body).toContain("Reset links work once, for 24 hours.");

    const expired = await resetLink(user.email);
    await t.db
      .update(passwordResetTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResetTokens.tokenDigest, sha256(expired.token)));
    const late = await submit(expired.path, { new_password: `${STRONG} 3`, confirm_password: `${STRONG} 3` });
    expect(late.statusCode).toBe(400);
    expect(late.body).toContain("expired");
    await expect(t.login(user.email, STRONG)).resolves.toMatch(/^Bearer /);

    const unknown = await submit("/links/password-reset/nobody-issued-this", {
      new_password: STRONG,
      confirm_password: STRONG,
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain("Link not found");
  });
});
