import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

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
