import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const CLI_PACKAGE = fileURLToPath(new URL("..", import.meta.url));
const REPOSITORY = join(CLI_PACKAGE, "../..");
const { version } = (await import("../package.json", { with: { type: "json" } })).default;

/*
 * `pnpm cli` (the root script, then scripts/run-cli.mjs) runs the built bundle and builds it first
 * only when a file it was made from changed. Its builds happen in a copy of the package (its own
 * src/, scripts/, dist/ and build record; the workspace's packages and dependencies linked in),
 * so that the dist/ the other CLI tests run is never rebuilt under them.
 */
let scratch: string;
let copy: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "allot-cli-runner-"));
  copy = join(scratch, "apps/cli");
  await mkdir(join(copy, "node_modules"), { recursive: true });
  // The root package.json: its `cli` script, and the pnpm version corepack runs.
  await cp(join(REPOSITORY, "package.json"), join(scratch, "package.json"));
  for (const file of ["package.json", "tsconfig.json", "scripts", "src"])
    await cp(join(CLI_PACKAGE, file), join(copy, file), { recursive: true });
  // The same relative paths up to the workspace as in the repository (build.mjs imports from
  // ../../packages); the package's dependencies one by one, not its build record in .cache.
  for (const folder of ["packages", "tooling", "node_modules"])
    await symlink(join(REPOSITORY, folder), join(scratch, folder));
  for (const name of await readdir(join(CLI_PACKAGE, "node_modules")))
    if (!name.startsWith("."))
      await symlink(join(CLI_PACKAGE, "node_modules", name), join(copy, "node_modules", name));
}, 60_000);
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** `pnpm cli …` typed at the copy's root. */
const pnpmCli = (args: string[]) =>
  run("pnpm", ["--silent", "cli", ...args], {
    cwd: scratch,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, COREPACK_ENABLE_DOWNLOAD_PROMPT: "0" },
  });
const builtAt = async () => (await stat(join(copy, "dist/allot.js"))).mtimeMs;

describe("pnpm cli (scripts/run-cli.mjs)", () => {
  it("builds on the first run and when a source changed, and runs the bundle as it is otherwise", async () => {
    const first = await pnpmCli(["--version"]);
    expect(first.stderr).toBe("Building allot (no build recorded yet)…\n");
    expect(first.stdout.trim()).toBe(version);
    const firstBuild = await builtAt();

    const fresh = await pnpmCli(["--version"]);
    expect(fresh.stderr).toBe("");
    expect(fresh.stdout.trim()).toBe(version);
    expect(await builtAt()).toBe(firstBuild);

    // A change the bundle shows: the program's description, in `--help`.
    const program = join(copy, "src/program.ts");
    const source = await readFile(program, "utf8");
    expect(source).toContain("Allot from the command line");
    await writeFile(
      program,
      source.replace("Allot from the command line", "Allot, rebuilt, from the command line"),
    );
    const changed = await pnpmCli(["--help"]);
    expect(changed.stderr).toBe("Building allot (src/program.ts changed)…\n");
    expect(changed.stdout).toContain("Allot, rebuilt, from the command line");
    const secondBuild = await builtAt();
    expect(secondBuild).not.toBe(firstBuild);

    expect((await pnpmCli(["--help"])).stderr).toBe("");
    expect(await builtAt()).toBe(secondBuild);
  }, 120_000);
});
