import { createHash } from "node:crypto";
import { setupTokens } from "@allot/db/schema/setup-tokens";
import { testEngines } from "@allot/db/testing/test-databases";
import { randomToken, sha256 } from "@allot/domain/auth/token-digest";
import { issueSetupToken } from "@allot/domain/setup/issue-setup-token";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { SETUP_FORM, useFirstRun } from "../../test/testing/first-run";
import { expectLinkPageHeaders } from "../../test/testing/link-page-headers";
import { useTestApp } from "../../test/testing/test-app";

describe.each(testEngines())("link pages: first run, security (%s)", (engine) => {
  const t = useTestApp(engine);
  const firstRun = useFirstRun(t);

  /** The setup_tokens table as text, every column of every row. */
  const storedTokens = async () => JSON.stringify(await t.db.execute(sql`select * from ${setupTokens}`));

  it("keeps only the token's SHA-256 digest, never the token", async () => {
    const { token } = await firstRun.start();
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(await t.db.select({ digest: setupTokens.tokenDigest }).from(setupTokens)).toEqual([
      { digest: sha256(token) },
    ]);
    expect(await storedTokens()).not.toContain(token);
  });

  it("retires a start's link at the next start, while no user exists", async () => {
    const first = await firstRun.start();
    const second = await firstRun.start();
    expect(second.token).not.toBe(first.token);
    expect((await t.inject({ url: first.path })).statusCode).toBe(404);
    expect((await firstRun.submit(first.path)).statusCode).toBe(404);
    expect((await firstRun.submit(second.path)).statusCode).toBe(200);
  });

  it("works once: the first user spends every link, and later starts print none", async () => {
    const { path } = await firstRun.start();
    expect((await firstRun.submit(path)).statusCode).toBe(200);
    expect(await t.db.select().from(setupTokens)).toEqual([]);
    const again = await firstRun.submit(path, { ...SETUP_FORM, email: "second@example.com" });
    expect(again.statusCode).toBe(410);
    expect((await t.inject({ url: path })).statusCode).toBe(410);
    // A restart now: no link, and nothing left to guess at.
    expect(await issueSetupToken(t.db)).toBeNull();
    expect(await t.db.select().from(setupTokens)).toEqual([]);
    const { users } = await firstRun.rows();
    expect(users.map((user) => user.email)).toEqual([SETUP_FORM.email]);
  });

  it("creates exactly one user when submits race, on one link or on two instances' links", async () => {
    const { path } = await firstRun.start();
    // A second instance started at the same moment: its link is live too.
    const other = randomToken();
    await t.db.insert(setupTokens).values({ tokenDigest: sha256(other) });
    const paths = [path, `/links/setup/${other}`];
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        firstRun.submit(paths[i % 2] as string, {
          ...SETUP_FORM,
          email: `racer${i}@example.com`,
          bank_name: `Bank ${i}`,
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([200, 410, 410, 410, 410, 410, 410, 410]);
    const { users, banks } = await firstRun.rows();
    expect(users).toHaveLength(1);
    expect(banks).toHaveLength(1);
    const winner = answers.findIndex((answer) => answer.statusCode === 200);
    expect(users[0]?.email).toBe(`racer${winner}@example.com`);
    expect(banks[0]?.name).toBe(`Bank ${winner}`);
  });

  it("sends the link pages' headers and strict CSP on the form, its refusals and the done page", async () => {
    const { path } = await firstRun.start();
    const form = await t.inject({ url: path });
    const invalid = await firstRun.submit(path, { ...SETUP_FORM, email: "nope" });
    const unknown = await t.inject({ url: "/links/setup/nobody-issued-this" });
    const done = await firstRun.submit(path);
    const spent = await t.inject({ url: path });
    expect([form, invalid, unknown, done, spent].map((r) => r.statusCode)).toEqual([200, 400, 404, 200, 410]);
    for (const response of [form, invalid, unknown, done, spent]) {
      expectLinkPageHeaders(response);
      // Plain HTML: no script, no inline style or handler; the one stylesheet is allowed by its hash.
      expect(response.body).not.toMatch(/<script|\sstyle=|\son\w+=/i);
      const css = /<style>([\s\S]*?)<\/style>/.exec(response.body)?.[1] ?? "";
      const hash = createHash("sha256").update(css).digest("base64");
      expect(response.headers["content-security-policy"]).toContain(`style-src 'sha256-${hash}'`);
    }
  });

  it("escapes what it echoes back, and a hostile token's refusal", async () => {
    const { path } = await firstRun.start();
    const hostile = `"><script>alert('x')</script>`;
    const page = await firstRun.submit(path, { ...SETUP_FORM, email: hostile, bank_name: hostile });
    expect(page.statusCode).toBe(400);
    expect(page.body).not.toContain("<script>");
    expect(page.body).toContain('value="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"');

    const odd = `/links/setup/${encodeURIComponent(hostile)}`;
    const refused = await t.inject({ url: odd });
    expect(refused.statusCode).toBe(404);
    expect(refused.body).not.toContain("<script>");
  });
});
