import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeInChromium, launchChromium } from "../../test/testing/chromium";
import { useTestApp } from "../../test/testing/test-app";

/** The reference page as a reader opens it: a real server on a port, headless Chromium with JavaScript on. */
describeInChromium("the API reference page in a browser (%s)", (engine) => {
  const t = useTestApp(engine);
  let origin: string;
  let browser: Browser;

  beforeAll(async () => {
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("renders the guide and every tag, with curl and SDK samples, no console error and no request off the server", async () => {
    const document = (await t.inject({ url: "/api/v1/openapi.json" })).json();
    const tags = new Set<string>();
    for (const operations of Object.values(document.paths) as Record<string, { tags?: string[] }>[])
      for (const operation of Object.values(operations))
        for (const tag of operation.tags ?? []) tags.add(tag);
    expect(tags.size).toBeGreaterThan(10);

    const page = await (await browser.newContext()).newPage();
    const problems: string[] = [];
    const elsewhere: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("response", (answer) => {
      if (answer.status() >= 400) problems.push(`${answer.url()}: ${answer.status()}`);
    });
    page.on("requestfailed", (request) => problems.push(`${request.url()}: ${request.failure()?.errorText}`));
    page.on("request", (request) => {
      if (!request.url().startsWith(`${origin}/`) && !request.url().startsWith("data:"))
        elsewhere.push(request.url());
    });

    const response = await page.goto(`${origin}/api/docs`);
    expect(response?.status()).toBe(200);
    await page.getByRole("heading", { name: "Getting started" }).waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByRole("heading", { name: "Authentication" }).count()).toBeGreaterThan(0);

    // Every tag is a group of the sidebar a reader sees.
    for (const tag of tags)
      expect(await page.getByText(tag, { exact: true }).first().isVisible(), `tag ${tag}`).toBe(true);

    // An operation's samples: curl by default, and the SDK call written for it. Opened from the
    // sidebar; the picker is the operation's (the introduction names "Shell Curl" too, as text).
    await page.getByText("budgets", { exact: true }).first().click();
    await page.getByText("Retrieve a budget", { exact: true }).first().click();
    const operation = page.locator('section[id$="/tag/budgets/GET/v1/budgets/{id}/"]');
    const code = () => operation.locator("code").allTextContents();
    await expect
      .poll(code, { timeout: 30_000 })
      .toEqual(expect.arrayContaining([expect.stringMatching(/curl .*\/api\/v1\/budgets\//)]));
    const picker = operation.getByRole("button", { name: /Shell Curl/ }).first();
    const sdkOption = page.getByRole("option", { name: "SDK" }).first();
    // Clicked again until it opens: on a busy machine the first click can land before the page listens.
    await expect
      .poll(
        async () => {
          if (!(await sdkOption.isVisible())) await picker.click({ timeout: 5_000 }).catch(() => undefined);
          return sdkOption.isVisible();
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toBe(true);
    await sdkOption.click();
    await expect
      .poll(code, { timeout: 20_000 })
      .toEqual(expect.arrayContaining([expect.stringContaining("allot.budgets.get(")]));

    expect(problems).toEqual([]);
    expect(elsewhere).toEqual([]);
  }, 120_000);
});
