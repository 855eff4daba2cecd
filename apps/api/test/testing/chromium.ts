import { existsSync } from "node:fs";
import type { DatabaseEngine } from "@allot/db/create-database";
import { testEngines } from "@allot/db/testing/test-databases";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { describe } from "vitest";

/** Debian's chromium package (`apt-get install -y chromium`); `.ci/run` installs it. */
const CHROMIUM = "/usr/bin/chromium";

/**
 * A browser suite on each engine. It runs where Chromium is installed, and always under CI (which
 * installs it, so a missing browser fails there loudly); on a machine without it, as a newcomer's
 * plain `pnpm test` may be, it is declared skipped with the reason (decision 0052).
 */
export function describeInChromium(title: string, suite: (engine: DatabaseEngine) => void) {
  if (existsSync(CHROMIUM) || process.env.CI) describe.each(testEngines())(title, suite);
  else describe.skip(`${title} (skipped: needs Chromium, apt-get install chromium)`, () => {});
}

/** Headless Debian Chromium driven by playwright-core (which never downloads a browser of its own). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}. The browser tests need Debian's chromium: ` +
        "run `apt-get install -y chromium` (.ci/run does this before the tests).",
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Root in a container: no sandbox. The closed network refuses Chromium's own background calls.
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/**
 * A new page that records, into `problems`, console errors (a CSP refusal shows up there) and
 * failed requests; the note Chromium logs for a page's own 4xx status is expected (refusals are
 * pages too).
 */
export async function watchedPage(context: BrowserContext, problems: string[]): Promise<Page> {
  const page = await context.newPage();
  page.on("console", (message) => {
    const text = message.text();
    if (
      message.type() === "error" &&
      !text.startsWith("Failed to load resource: the server responded with a status of 4")
    )
      problems.push(text);
  });
  page.on("requestfailed", (request) => problems.push(`${request.url()}: ${request.failure()?.errorText}`));
  return page;
}
