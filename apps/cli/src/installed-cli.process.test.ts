import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { testEngines } from "@allot/db/testing/test-databases";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useCliServer } from "../test/testing/cli-server";

const run = promisify(execFile);
const CLI_PACKAGE = fileURLToPath(new URL("..", import.meta.url));
const { version } = (await import("../package.json", { with: { type: "json" } })).default;

// The package as a user gets it: `pnpm pack` of apps/cli (after the build vitest's global setup
// ran), installed globally into a folder of its own with npm, which fetches its two dependencies,
// as the README says: argon2's install script allowed (npm 11.16+ lists it in a warning otherwise).
let folder: string;
let allot: string;
let installWarnings: string[];
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "allot-installed-"));
  await run("pnpm", ["pack", "--pack-destination", folder], { cwd: CLI_PACKAGE });
  const [tarball] = (await readdir(folder)).filter((name) => name.endsWith(".tgz"));
  const { stderr } = await run(
    "npm",
    [
      "install",
      "--global",
      "--allow-scripts=argon2",
      "--prefix",
      join(folder, "global"),
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      join(folder, tarball as string),
    ],
    // As from a shell: without the npm_config_* variables `pnpm vitest` passes down, which npm
    // would warn about.
    {
      cwd: folder,
      env: Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name))),
    },
  );
  installWarnings = stderr.split("\n").filter((line) => /warn/i.test(line));
  allot = join(folder, "global", "bin", "allot");
}, 300_000);
afterAll(() => rm(folder, { recursive: true, force: true }));

/** The installed `allot`, with only the given variables (no tsx, no workspace on its path). */
const installed = (args: string[], env: Record<string, string> = {}) =>
  run(allot, args, { env: { PATH: process.env.PATH, HOME: folder, ...env } });

describe("allot installed from its packed tarball", () => {
  it("installs without a warning", () => {
    expect(installWarnings).toEqual([]);
  });

  it("answers --version (the package's, a release's) and --help", async () => {
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(version).not.toBe("0.0.0");
    expect((await installed(["--version"])).stdout.trim()).toBe(version);
    const help = await installed(["--help"]);
    for (const command of ["login", "transactions", "import", "admin", "api"])
      expect(help.stdout).toMatch(new RegExp(`^  ${command}\\b`, "m"));
  });

  // Two processes, each opening the embedded database (the first makes and migrates it): 15 s on
  // a busy machine, over 30 s when it is very busy (a load of 20 on 2 cores).
  it("runs the admin commands on a fresh embedded database (PGlite and argon2 installed beside it)", {
    timeout: 120_000,
  }, async () => {
    const env = { DATA_DIR: join(folder, "data") };
    const user = await installed(
      ["admin", "create-user", "--email", "first@example.com", "--password", "a long passphrase", "--json"],
      env,
    );
    expect(JSON.parse(user.stdout)).toMatchObject({ email: "first@example.com" });
    const bank = await installed(
      ["admin", "create-bank", "--name", "First Bank", "--currency", "USD", "--json"],
      env,
    );
    expect(JSON.parse(bank.stdout)).toMatchObject({ name: "First Bank", default_currency: "USD" });
  });
});

describe.each(testEngines())("the installed allot against a running API (%s)", (engine) => {
  const server = useCliServer(engine);

  it("makes its first request with an API key", async () => {
    const user = await server.t.user();
    const key = (await server.t.apiKey(user)).replace(/^Api-Key /, "");
    const whoami = await installed(["whoami", "--json"], {
      ALLOT_API_KEY: key,
      ALLOT_BASE_URL: server.baseUrl,
      ALLOT_CONFIG: join(folder, "config.json"),
    });
    expect(JSON.parse(whoami.stdout)).toMatchObject({ email: user.email, credential: "api_key" });
  });
});
