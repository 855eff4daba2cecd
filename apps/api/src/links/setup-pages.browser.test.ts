import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DatabaseEngine } from "@allot/db/create-database";
import { databaseUrl, withAdminConnection } from "@allot/db/testing/test-databases";
import type { Browser, Page } from "playwright-core";
import { afterEach, expect, it } from "vitest";
import { type ApiProcess, startApiProcess } from "../../test/faults/api-process";
import { describeInChromium, launchChromium, watchedPage } from "../../test/testing/chromium";
import { STRONG } from "../../test/testing/first-run";

/**
 * What `pnpm start` is on a fresh install (no migrated template): an empty data folder, or an
 * empty PostgreSQL database; the server migrates it. Returns the server's environment.
 */
async function freshStore(
  engine: DatabaseEngine,
  defer: (cleanup: () => Promise<unknown>) => void,
): Promise<Record<string, string>> {
  const dataDir = await mkdtemp(join(tmpdir(), "allot-first-run-"));
  defer(() => rm(dataDir, { recursive: true, force: true }));
  if (engine === "pglite") return { DATA_DIR: dataDir };
  const serverUrl = process.env.DATABASE_URL as string;
  const name = `allot_first_run_${randomBytes(5).toString("hex")}`;
  await withAdminConnection(serverUrl, (sql) => sql.unsafe(`create database ${name}`));
  defer(() =>
    withAdminConnection(serverUrl, (sql) => sql.unsafe(`drop database if exists ${name} with (force)`)),
  );
  return {
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl(serverUrl, name),
    JWT_SECRET: randomBytes(32).toString("hex"),
  };
}

async function waitFor<T>(read: () => T | null, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The first run as a newcomer lives it: start the real server on nothing, copy the link it
 * prints, fill in the page in Chromium (JavaScript off), press the button, then sign in over HTTP.
 */
describeInChromium("first run in a browser (%s)", (engine) => {
  const cleanups: (() => Promise<unknown>)[] = [];
  const defer = (cleanup: () => Promise<unknown>) => cleanups.push(cleanup);
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
  });

  async function start(env: Record<string, string>): Promise<ApiProcess> {
    const api = await startApiProcess({ ...env, LOG_LEVEL: "info" });
    defer(() => api.kill());
    return api;
  }

  it("creates the first user and bank from the printed link, which then refuses", async () => {
    const env = await freshStore(engine, defer);
    const api = await start(env);
    const link = new RegExp(`${api.base}/links/setup/([\\w-]{43})\\n`);
    const token = await waitFor(() => link.exec(api.output())?.[1] ?? null, "first-run link");
    const path = `/links/setup/${token}`;

    const browser: Browser = await launchChromium();
    defer(() => browser.close());
    const context = await browser.newContext({ javaScriptEnabled: false });
    const problems: string[] = [];
    const open = async (url: string): Promise<Page> => {
      const page = await watchedPage(context, problems);
      await page.goto(url);
      return page;
    };
    const page = await open(`${api.base}${path}`);
    await expect(page.locator("h1").textContent()).resolves.toBe("Set up Allot");
    await page.getByLabel("Email").fill("newcomer@example.com");
    await page.getByLabel("Your name").fill("New Comer");
    await page.getByLabel("Password", { exact: true }).fill("password");
    await page.getByLabel("Confirm the password").fill("password");
    await page.getByLabel("Time zone").fill("Europe/Lisbon");
    await page.getByLabel("Bank name").fill("Caixa Local");
    await page.getByLabel("Currency").fill("EUR");
    await page.getByRole("button", { name: "Create the user" }).click();
    // Refused beside the field, the rest kept; the passwords are typed again.
    await expect(page.locator("#password-error").isVisible()).resolves.toBe(true);
    await expect(page.getByLabel("Bank name").inputValue()).resolves.toBe("Caixa Local");
    await page.getByLabel("Password", { exact: true }).fill(STRONG);
    await page.getByLabel("Confirm the password").fill(STRONG);
    await page.getByRole("button", { name: "Create the user" }).click();
    await expect(page.locator("h1").textContent()).resolves.toBe("Allot is set up");
    const done = (await page.locator("main").textContent()) ?? "";
    expect(done).toContain(`allot login --url '${api.base}' --email 'newcomer@example.com'`);
    expect(done).toContain(`curl -s -X POST '${api.base}/api/token/'`);

    // Signed in over HTTP as the done page says, the bank is there.
    const login = await fetch(`${api.base}/api/token/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "newcomer@example.com", password: STRONG }),
    });
    expect(login.status).toBe(200);
    const { access } = (await login.json()) as { access: string };
    const banks = await fetch(`${api.base}/api/v1/banks/`, {
      headers: { authorization: `Bearer ${access}` },
    });
    const listed = (await banks.json()) as { results: { name: string; default_currency: string }[] };
    expect(listed.results.map((bank) => [bank.name, bank.default_currency])).toEqual([
      ["Caixa Local", "EUR"],
    ]);

    // The link works once.
    const again = await watchedPage(context, problems);
    const refused = await again.goto(`${api.base}${path}`);
    expect(refused?.status()).toBe(410);
    await expect(again.locator("h1").textContent()).resolves.toBe("Allot is already set up");
    expect(await again.getByRole("button").count()).toBe(0);
    expect(problems).toEqual([]);

    // The printed line is the only place the token was written; request lines mask it.
    expect(await api.stop()).toBe(0);
    const output = api.output();
    expect(output.split(token)).toHaveLength(2);
    expect(output).toContain('"url":"/links/setup/[masked]"');
    expect(output).toContain("No user exists yet: the one-time setup link was printed on stdout");

    // A restart with a user: no link.
    const restarted = await start(env);
    expect(await restarted.stop()).toBe(0);
    expect(restarted.output()).not.toContain("/links/setup/");
    expect(restarted.output()).not.toContain("No user exists yet");
  }, 300_000);
});
