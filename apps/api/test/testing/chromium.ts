import { existsSync } from "node:fs";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";

/** Debian's chromium package (`apt-get install -y chromium`); `.ci/run` installs it. */
const CHROMIUM = "/usr/bin/chromium";

/**
 * Headless Debian Chromium driven by playwright-core (which never downloads a browser of its own).
 * A missing browser fails the suite loudly: browser tests are never skipped.
 */
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
